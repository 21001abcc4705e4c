import type { Storage } from '../../storage/types.js';
import { DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD, volumeFigures } from './volume.js';

/** Options of {@link pilotEligible}. */
export interface EligibilityOptions {
  /** The affiliate volume threshold, USD; the server passes `config.affiliateVolumeThresholdUsd`. */
  thresholdUsd?: number;
}

/**
 * Pilot-spectate eligibility (section 4.10): the user qualifies on the volume standing, i.e. holds a
 * connection on an affiliate exchange and traded at least the threshold there over the last 30 days.
 * Read-only: unlike `GET /v1/promotions/volume` it grants nothing.
 */
export async function pilotEligible(
  storage: Storage,
  userId: string,
  now: number,
  options: EligibilityOptions = {},
): Promise<boolean> {
  const threshold = options.thresholdUsd ?? DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD;
  return (await volumeFigures(storage, userId, now, threshold)).qualifies;
}
