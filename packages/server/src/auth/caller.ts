/** Who is calling: nobody, or a user through a session or an API key, with the tier they are served at. */
import type { Tier, UserRecord } from '../storage/types.js';

export type Caller =
  | { kind: 'anonymous' }
  | {
      kind: 'session' | 'api_key';
      user: UserRecord;
      /** Effective tier, or null when the subscription could not be read. */
      tier: Tier | null;
      tier_expires_at: number | null;
      api_key_id: string | null;
    };
