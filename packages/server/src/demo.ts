/**
 * The demo user of the embedded default, seeded by the composition root at every start: an
 * account (auth), its pilot access (pilot) and a fresh API key (keys).
 */
import { openSession, type SessionGrant, signup } from './auth/users.js';
import { createApiKey } from './keys/api-keys.js';
import { grantPilotAccess } from './pilot/admin.js';
import { AppError } from './platform/errors/app-error.js';
import type { Storage } from './storage/types.js';

export const DEMO_EMAIL = 'demo@marketlens.local';
/** Days of pilot access the demo user gets at every start of the embedded default. */
export const DEMO_PILOT_DAYS = 30;

export interface DemoCredentials {
  email: string;
  password: string;
  session_token: string;
  api_key: string;
}

/**
 * Ensures the demo user exists and returns a fresh session token and API key for it.
 * The password is random per data folder run; the printed token is how one signs in.
 */
export async function seedDemo(storage: Storage, now: number = Date.now()): Promise<DemoCredentials> {
  const password = `demo-${Math.random().toString(36).slice(2)}-${now.toString(36)}`;
  let grant: SessionGrant;
  try {
    grant = await signup(storage, DEMO_EMAIL, password, now);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'EmailAlreadyRegistered') throw err;
    // Existing demo user: its earlier demo sessions end (one live demo session, not one per
    // start), then a session opens directly (its password is not kept).
    const user = await storage.users.byEmail(DEMO_EMAIL);
    if (!user) throw err;
    await storage.sessions.deleteByUser(user.id);
    grant = await openSession(storage, user, now);
  }
  // The demo address is ours: it counts as verified, should verification be turned on.
  await storage.users.markVerified(grant.user.id, now);
  // The demo can spectate the pilot (no affiliate volume needed), as an operator's grant allows.
  await grantPilotAccess(storage, grant.user.id, DEMO_PILOT_DAYS, now);
  const keys = await storage.apiKeys.listByUser(grant.user.id);
  for (const k of keys)
    if (k.name === 'demo' && k.revoked_at === null) await storage.apiKeys.revoke(grant.user.id, k.id, now);
  const { key } = await createApiKey(storage, grant.user.id, { name: 'demo' }, now);
  return { email: DEMO_EMAIL, password, session_token: grant.token, api_key: key };
}
