import { requireUser } from '../auth/authorize.js';
import { credits, usageOf } from '../auth/tiers.js';
import { requireVerifiedEmail } from '../auth/verification/verification.js';
import type { Actor, AppDeps } from '../platform/deps.js';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys.js';

/**
 * A user's API keys and their daily allowance, as REST (`/v1/users/api_keys*`) asks for them. Only
 * a signed-in user manages keys; creating one needs a verified address where verification is
 * required, and at most `MAX_ACTIVE_API_KEYS` are active at once.
 */
export function keyUseCases(deps: AppDeps) {
  return {
    /** Today's allowance of the caller's tier (free when unreadable): limit, calls spent and the reset. */
    async credits(actor: Actor) {
      const caller = requireUser(actor.caller);
      return credits(usageOf(deps), caller.user.id, caller.tier ?? 'free', deps.now());
    },

    /**
     * Creates a key, its secret returned only here; 403 `EmailNotVerified` until the address is
     * verified (where required), 422 `ApiKeyLimitExceeded` past the active keys allowed.
     */
    async create(actor: Actor, request: { name?: string | null; expires_in_days?: number | null }) {
      const userId = requireUser(actor.caller).user.id;
      await requireVerifiedEmail(deps, userId);
      const { key, view } = await createApiKey(deps.storage, userId, request, deps.now());
      return { key, api_key: view };
    },

    /** The caller's keys, revoked and expired included, newest first. */
    list: async (actor: Actor) => listApiKeys(deps.storage, requireUser(actor.caller).user.id, deps.now()),

    /** Revokes an active key of the caller at once (the record stays); 404 `NotFound` otherwise. */
    async revoke(actor: Actor, keyId: string): Promise<void> {
      await revokeApiKey(deps.storage, requireUser(actor.caller).user.id, keyId, deps.now());
    },
  };
}

/** The use cases of the keys feature, as the composition root builds them. */
export type KeyUseCases = ReturnType<typeof keyUseCases>;
