/** Wire schemas of the API keys of an account (`/v1/users/api_keys`) and of their daily allowance. */
import { z } from 'zod';
import { TIERS } from '../tiers.js';

/** Longest lifetime a key may be created with, in days; a key may also never expire. */
export const API_KEY_MAX_EXPIRES_DAYS = 365;

const time = z.iso.datetime();

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string().nullable(),
    prefix: z.string().meta({ description: 'First characters of the key, to tell keys apart' }),
    created_at: time,
    expires_at: time.nullable(),
    revoked_at: time.nullable(),
    last_used_at: time.nullable(),
    is_active: z.boolean().meta({ description: 'false once expired or revoked' }),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.output<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    key: z.string().meta({ description: 'Send as `x-api-key`. Shown only once; stored hashed.' }),
    api_key: ApiKeySchema,
  })
  .meta({ id: 'CreatedApiKey' });

/** `POST /v1/users/api_keys` body (optional as a whole). */
export const CreateApiKeySchema = z
  .object({
    name: z.string().min(1).max(64).optional(),
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(API_KEY_MAX_EXPIRES_DAYS)
      .optional()
      .meta({ description: 'Omit for a key that does not expire' }),
  })
  .meta({ id: 'CreateApiKey' });

/** `DELETE /v1/users/api_keys/{key_id}` path. */
export const ApiKeyIdParams = z.object({ key_id: z.uuid() });

export const ApiKeyCreditsSchema = z
  .object({
    tier: z.enum(TIERS),
    daily_limit: z.number().int(),
    used_today: z.number().int(),
    remaining_today: z.number().int(),
    resets_at: time.meta({ description: 'Next 00:00 UTC' }),
  })
  .meta({ id: 'ApiKeyCredits' });
