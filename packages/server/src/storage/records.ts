/**
 * Records shared by the storage port's type files (the port in `types.ts`, accounts, promotions):
 * here so that those files import them without importing each other.
 */

import { TIERS, type TierName } from '@marketlens/contract';

export { TIERS };
export type Tier = TierName;

export type GrantSource = 'promotion' | 'affiliate' | 'admin';

/** A grant that raises a user's tier until it expires. */
export interface TierGrantRecord {
  id: string;
  user_id: string;
  tier: Tier;
  source: GrantSource;
  granted_at: number;
  expires_at: number;
}

/** A page of a list: at most `limit` rows after skipping `offset`. */
export interface PageOptions {
  limit?: number;
  offset?: number;
}
