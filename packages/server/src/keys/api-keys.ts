import { randomUUID } from 'node:crypto';
import { API_KEY_MAX_EXPIRES_DAYS, isoOrNull } from '@marketlens/contract';
import { newSecret, secretHash } from '../auth/secrets.js';
import { isKeyActive } from '../auth/tiers.js';
import { AppError } from '../platform/errors/app-error.js';
import type { ApiKeyRecord, Storage } from '../storage/types.js';

export const MAX_ACTIVE_API_KEYS = 10;
/** A key may be created to expire after 1..365 days, or never (no `expires_in_days`): a published rule, in the contract. */
export { API_KEY_MAX_EXPIRES_DAYS };

const DAY_MS = 86_400_000;

export interface ApiKeyView {
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  is_active: boolean;
}

export function viewKey(k: ApiKeyRecord, now: number): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: new Date(k.created_at).toISOString(),
    expires_at: isoOrNull(k.expires_at),
    revoked_at: isoOrNull(k.revoked_at),
    last_used_at: isoOrNull(k.last_used_at),
    is_active: isKeyActive(k, now),
  };
}

/**
 * Creates a key for the user, at most {@link MAX_ACTIVE_API_KEYS} active ones. The key itself is
 * returned only here; storage keeps its hash (`record`).
 */
export async function createApiKey(
  storage: Storage,
  userId: string,
  opts: { name?: string | null; expires_in_days?: number | null },
  now: number,
): Promise<{ key: string; view: ApiKeyView; record: ApiKeyRecord }> {
  const days = opts.expires_in_days ?? null;
  // Routes validate with zod first; this guards every other caller (the CLI, scripts).
  if (days !== null && !(Number.isInteger(days) && days >= 1 && days <= API_KEY_MAX_EXPIRES_DAYS)) {
    throw new AppError('InvalidRequest', `expires_in_days must be an integer 1..${API_KEY_MAX_EXPIRES_DAYS}`);
  }
  const key = newSecret('mlk_');
  const record: ApiKeyRecord = {
    id: randomUUID(),
    user_id: userId,
    name: opts.name ?? null,
    prefix: key.slice(0, 12),
    key_hash: secretHash(key),
    created_at: now,
    expires_at: days === null ? null : now + days * DAY_MS,
    revoked_at: null,
    last_used_at: null,
  };
  if (!(await storage.apiKeys.createIfBelow(record, MAX_ACTIVE_API_KEYS, now))) {
    throw new AppError('ApiKeyLimitExceeded', `At most ${MAX_ACTIVE_API_KEYS} active API keys per account`);
  }
  return { key, view: viewKey(record, now), record };
}

export async function listApiKeys(storage: Storage, userId: string, now: number): Promise<ApiKeyView[]> {
  return (await storage.apiKeys.listByUser(userId)).map((k) => viewKey(k, now));
}

/** Revokes an active key of the user (the row stays as the audit record); NotFound otherwise. */
export async function revokeApiKey(storage: Storage, userId: string, id: string, now: number): Promise<void> {
  if (!(await storage.apiKeys.revoke(userId, id, now)))
    throw new AppError('NotFound', 'No active API key with this id');
}
