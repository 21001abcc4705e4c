import { ApiKeyIdParams, CreateApiKeySchema } from '@marketlens/contract';
import { restTable } from '../../platform/rest-table.js';
import { MAX_ACTIVE_API_KEYS } from '../api-keys.js';

const CreateBody = { content: { 'application/json': { schema: CreateApiKeySchema } }, required: false };

/** An account's API keys; `credits` first, so it is never read as a `{key_id}`. */
export const apiKeyRoutes = restTable('API keys', {
  'keys.credits': [
    { get: '/v1/users/api_keys/credits', id: 'getApiKeyCredits', ok: 'Allowance figures' },
    'Live daily API-key allowance',
    "The caller tier's daily API-key allowance, what all the account's keys spent today and when it resets (00:00 UTC).",
  ],
  'keys.create': [
    {
      post: '/v1/users/api_keys',
      id: 'createApiKey',
      request: { body: CreateBody },
      ok: 'Key created',
      errors: [422],
      cacheControl: 'no-store',
    },
    'Create an API key',
    `At most ${MAX_ACTIVE_API_KEYS} active keys per account. Where email verification is required, 403 \`EmailNotVerified\` until the address is verified.`,
  ],
  'keys.list': [
    { get: '/v1/users/api_keys', id: 'listApiKeys', ok: 'Keys, newest first' },
    'List API keys, revoked and expired included',
    'Each key as its prefix and metadata; the secret is shown only once, by the create call.',
  ],
  'keys.revoke': [
    {
      delete: '/v1/users/api_keys/{key_id}',
      id: 'deleteApiKey',
      params: ApiKeyIdParams,
      ok: 'Key revoked',
      errors: [404],
    },
    'Revoke an API key at once',
    'The key stops working immediately; its record is kept for audit.',
  ],
});
