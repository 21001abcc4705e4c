/**
 * Admin use cases of the pilot (the `marketlens admin pilot` commands): grant and revoke access to
 * spectate it, whatever a user's affiliate volume.
 */
import { userOf } from '../auth/admin.js';
import type { AppDeps } from '../platform/deps.js';
import type { PilotAccessRecord } from '../storage/plans-types.js';
import type { Storage } from '../storage/types.js';

/** Longest pilot grant an operator may give. */
export const PILOT_GRANT_MAX_DAYS = 3650;
const DAY_MS = 86_400_000;

/**
 * Admin: lets a user spectate the pilot for `days` days whatever their affiliate volume (an
 * operator, a partner, the demo). Granting again replaces the earlier grant. Throws when no such user exists.
 */
export async function grantPilotAccess(
  storage: Storage,
  emailOrId: string,
  days: number,
  now: number = Date.now(),
): Promise<PilotAccessRecord & { email: string }> {
  if (!Number.isInteger(days) || days < 1 || days > PILOT_GRANT_MAX_DAYS) {
    throw new Error(`days must be an integer 1..${PILOT_GRANT_MAX_DAYS}`);
  }
  const user = await userOf(storage, emailOrId);
  const access = { user_id: user.id, granted_at: now, expires_at: now + days * DAY_MS };
  await storage.pilot.grantAccess(access);
  return { ...access, email: user.email };
}

/** Admin: ends a user's pilot grant (their affiliate volume may still qualify them); false when none was in force. */
export async function revokePilotAccess(storage: Storage, emailOrId: string): Promise<boolean> {
  const user = await userOf(storage, emailOrId);
  return storage.pilot.revokeAccess(user.id);
}

/**
 * The operator's operations on the pilot (`admin.grantPilot`, `admin.revokePilot`), run only for
 * the operator (`marketlens admin pilot ...`). An unknown user is `NotFound`; revoking where no
 * grant was in force answers `revoked: false`.
 */
export function pilotAdminUseCases(deps: AppDeps) {
  return {
    async grantPilot(input: { user: string; days: number }) {
      const grant = await grantPilotAccess(deps.storage, input.user, input.days, deps.now());
      return { user_id: grant.user_id, email: grant.email, granted_at: grant.granted_at, expires_at: grant.expires_at };
    },
    async revokePilot(input: { user: string }) {
      const user = await userOf(deps.storage, input.user);
      return { user_id: user.id, email: user.email, revoked: await deps.storage.pilot.revokeAccess(user.id) };
    },
  };
}
