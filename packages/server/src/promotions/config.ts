import type { ServerConfig } from '../platform/deps.js';
import { type SettingsGroup, setting } from '../platform/settings.js';
import { DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD } from './volume.js';

// The promotions' slice of the server's configuration (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /**
       * Affiliate volume threshold, USD: 30-day volume on affiliate exchanges at or above it qualifies
       * (`GET /v1/promotions/volume`, affiliate Elite, pilot eligibility). Env
       * `MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD`; absent: 10,000.
       */
      affiliateVolumeThresholdUsd?: number;
    }
  }
}

/** The configured affiliate volume threshold (USD), or the default 10,000. */
export function affiliateThresholdUsd(config: Pick<ServerConfig, 'affiliateVolumeThresholdUsd'>): number {
  return config.affiliateVolumeThresholdUsd ?? DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD;
}

/**
 * `MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD`: a non-negative number of USD; unset or empty: the
 * default. Anything else stops the server at start rather than silently using the default.
 */
export function affiliateThresholdFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD?.trim();
  if (raw === undefined || raw === '') return DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD;
  const n = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || !Number.isFinite(n))
    throw new Error(`MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD must be a non-negative number of USD, got ${raw}`);
  return n;
}

/** The promotions' settings: the affiliate volume threshold (MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD). */
export const PROMOTIONS_SETTINGS: SettingsGroup = {
  owner: 'promotions/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('affiliateVolumeThresholdUsd', 'MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD', 'number', '10000', '30-day affiliate volume that qualifies (promotions, pilot)'),
  ],
  read: (env) => ({ affiliateVolumeThresholdUsd: affiliateThresholdFromEnv(env) }),
};
