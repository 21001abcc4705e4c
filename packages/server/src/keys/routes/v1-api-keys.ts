import { ApiKeyIdParams, CreateApiKeySchema, ok } from '@marketlens/contract';
import { type RunOperation, routesOf, type Serve } from '../../platform/operation.js';
import { MAX_ACTIVE_API_KEYS } from '../api-keys.js';

const route = routesOf('API keys');

const createApiKeyRoute = route('keys.create', {
  method: 'post',
  path: '/v1/users/api_keys',
  operationId: 'createApiKey',
  summary: 'Create an API key',
  description: `At most ${MAX_ACTIVE_API_KEYS} active keys per account. Where email verification is required, 403 \`EmailNotVerified\` until the address is verified.`,
  request: { body: { content: { 'application/json': { schema: CreateApiKeySchema } }, required: false } },
  ok: 'Key created',
  errors: [422],
});

const listApiKeysRoute = route('keys.list', {
  method: 'get',
  path: '/v1/users/api_keys',
  operationId: 'listApiKeys',
  summary: 'List API keys, revoked and expired included',
  description: 'Each key as its prefix and metadata; the secret is shown only once, by the create call.',
  ok: 'Keys, newest first',
});

const deleteApiKeyRoute = route('keys.revoke', {
  method: 'delete',
  path: '/v1/users/api_keys/{key_id}',
  operationId: 'deleteApiKey',
  summary: 'Revoke an API key at once',
  description: 'The key stops working immediately; its record is kept for audit.',
  request: { params: ApiKeyIdParams },
  ok: 'Key revoked',
  errors: [404],
});

const creditsRoute = route('keys.credits', {
  method: 'get',
  path: '/v1/users/api_keys/credits',
  operationId: 'getApiKeyCredits',
  summary: 'Live daily API-key allowance',
  description:
    "The caller tier's daily API-key allowance, what all the account's keys spent today and when it resets (00:00 UTC).",
  ok: 'Allowance figures',
});

export function registerApiKeyRoutes(serve: Serve, run: RunOperation): void {
  // Registered before `{key_id}` routes so `credits` is never read as an id.
  serve(creditsRoute, async (c) => c.json(ok(await run(c, 'keys.credits', {})), 200));
  serve(createApiKeyRoute, async (c) => {
    const created = await run(c, 'keys.create', c.req.valid('json') ?? {});
    c.header('cache-control', 'no-store');
    return c.json(ok(created), 200);
  });
  serve(listApiKeysRoute, async (c) => c.json(ok(await run(c, 'keys.list', {})), 200));
  serve(deleteApiKeyRoute, async (c) => {
    return c.json(ok(await run(c, 'keys.revoke', c.req.valid('param'))), 200);
  });
}
