import type { Storage } from '../storage/types.js';
import { DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD, volumeFigures } from './volume.js';

/** Options of {@link pilotEligible}. */
export interface EligibilityOptions {
  /** The affiliate volume threshold, USD; the server passes `config.affiliateVolumeThresholdUsd`. */
  thresholdUsd?: number;
}

/**
 * Pilot-spectate eligibility: an operator's pilot grant in force (`marketlens admin pilot grant`),
 * or the volume standing, i.e. a connection on an affiliate exchange with at least the threshold
 * traded there over the last 30 days. Read-only: unlike `GET /v1/promotions/volume` it grants
 * nothing. REST and MCP both ask this one function.
 */
export async function pilotEligible(
  storage: Storage,
  userId: string,
  now: number,
  options: EligibilityOptions = {},
): Promise<boolean> {
  if ((await storage.pilot.accessOf(userId, now)) !== null) return true;
  const threshold = options.thresholdUsd ?? DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD;
  return (await volumeFigures(storage, userId, now, threshold)).qualifies;
}
