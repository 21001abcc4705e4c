/**
 * The operator's operations on a user's API keys (`admin.apiKeys`, `admin.createApiKey`,
 * `admin.revokeApiKey`: the `marketlens admin keys` commands). A key is shown by its record without
 * the hash; a new key's secret is answered once.
 */
import type { AdminApiKey } from '@marketlens/contract';
import { userOf } from '../auth/admin.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { ApiKeyRecord } from '../storage/types.js';
import { createApiKey, revokeApiKey } from './api-keys.js';

/** An API key as the operator sees it: never its hash. */
export function adminKeyView({ key_hash: _hash, user_id: _user, ...rest }: ApiKeyRecord): AdminApiKey {
  return rest;
}

/**
 * The operator's operations on API keys, run only for the operator. An unknown user is `NotFound`;
 * a user at the limit of active keys `ApiKeyLimitExceeded`; revoking a key that is not active
 * (unknown, or revoked already) `NotFound`.
 */
export function keyAdminUseCases(deps: AppDeps) {
  const { storage } = deps;
  return {
    async apiKeys(input: { user: string }) {
      const user = await userOf(storage, input.user);
      const keys = await storage.apiKeys.listByUser(user.id);
      return { user_id: user.id, email: user.email, keys: keys.map(adminKeyView) };
    },
    async createApiKey(input: { user: string; expires_in_days: number | null }) {
      const user = await userOf(storage, input.user);
      const { key, record } = await createApiKey(
        storage,
        user.id,
        { expires_in_days: input.expires_in_days },
        deps.now(),
      );
      return { user_id: user.id, email: user.email, key, api_key: adminKeyView(record) };
    },
    async revokeApiKey(input: { user: string; key_id: string }) {
      const user = await userOf(storage, input.user);
      const now = deps.now();
      await revokeApiKey(storage, user.id, input.key_id, now);
      const after = (await storage.apiKeys.listByUser(user.id)).find((k) => k.id === input.key_id);
      // Gone with its user between the revocation and this read.
      if (after === undefined) throw new AppError('NotFound', `No API key ${input.key_id}`);
      return { user_id: user.id, email: user.email, api_key: adminKeyView(after) };
    },
  };
}
