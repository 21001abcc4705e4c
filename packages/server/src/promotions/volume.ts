import { randomUUID } from 'node:crypto';
import { EXCHANGE_CATALOG, parseInstrument } from '@marketlens/exchanges';
import { forgetUser } from '../auth/session-cache.js';
import {
  absExact,
  addExact,
  compareExact,
  EXACT_ZERO,
  type ExactDecimal,
  exactOf,
  exactToNumber,
  mulExact,
} from '../platform/decimal.js';
import type { FillRecord } from '../storage/account-types.js';
import type { Storage, TierGrantRecord } from '../storage/types.js';

const DAY_MS = 86_400_000;

/** The window the volume standing sums over (`total_30d_usd`). */
export const VOLUME_WINDOW_DAYS = 30;

/** Default `threshold_usd` when the server config sets none (the contract leaves the value open). */
export const DEFAULT_AFFILIATE_VOLUME_THRESHOLD_USD = 10_000;

/**
 * Quote currencies counted at par with the US dollar. A fill quoted in anything else (BTC, EUR, ...)
 * is not converted (marketlens keeps no historical FX or crypto rate at fill time): it is reported as
 * an uncounted fill and adds nothing to the total, so the standing never overstates volume.
 */
export const USD_QUOTES: ReadonlySet<string> = new Set([
  'USD',
  'USDT',
  'USDC',
  'BUSD',
  'FDUSD',
  'TUSD',
  'USDE',
  'DAI',
  'PYUSD',
  'USDP',
  'ZUSD',
]);

/**
 * Quote of a venue's derivatives whose native names carry none (Hyperliquid perpetuals are named by
 * coin, `BTC`, and are all margined and quoted in USDC).
 */
const VENUE_DERIVATIVES_QUOTE: Readonly<Record<string, string>> = { hyperliquid: 'USDC' };

/** The exchanges with an affiliate program: catalog venues with a referral link (never the simulated one). */
export function affiliateExchangeIds(): ReadonlySet<string> {
  return AFFILIATE_IDS;
}

const AFFILIATE_IDS: ReadonlySet<string> = new Set(
  EXCHANGE_CATALOG.filter((e) => e.affiliate_url !== null && !e.simulated).map((e) => e.id),
);

/** One affiliate exchange the user is connected to, with its 30-day volume (`PromotionVolumeExchange`). */
export interface PromotionVolumeExchange {
  /** The exchange id (`connection_id` of the promotion routes). */
  connection_id: string;
  name: string;
  /** How many of the user's accounts on this exchange are connected. */
  accounts: number;
  /** Summed notional of the counted fills, USD. */
  volume_30d_usd: number;
  /** Fills in the window whose notional was counted. */
  counted_fills: number;
  /** Fills in the window not counted because their quote is not USD or a USD stablecoin. */
  uncounted_fills: number;
}

/** The volume figures, before any grant (see {@link readVolumeStanding}). */
export interface VolumeFigures {
  per_exchange: PromotionVolumeExchange[];
  total_30d_usd: number;
  threshold_usd: number;
  qualifies: boolean;
}

/** The wire standing of `GET /v1/promotions/volume`. */
export interface VolumeStanding extends VolumeFigures {
  granted_via_promotion: boolean;
  promotion_expires_at: string | null;
}

/** The USD quote of a fill, or null when its quote is not USD-like (then it is not counted). */
export function usdQuoted(fill: Pick<FillRecord, 'pair' | 'venue' | 'market_type'>): boolean {
  const parsed = parseInstrument(fill.pair);
  const quote = parsed?.quote ?? (fill.market_type === 'derivatives' ? VENUE_DERIVATIVES_QUOTE[fill.venue] : undefined);
  return quote !== undefined && quote !== null && USD_QUOTES.has(quote.toUpperCase());
}

/** The USD notional of a fill (|price * amount|, exact), or null when it is not counted. */
export function fillNotionalUsd(fill: FillRecord): ExactDecimal | null {
  if (!usdQuoted(fill)) return null;
  if (!Number.isFinite(fill.price) || !Number.isFinite(fill.amount)) return null;
  return absExact(mulExact(exactOf(fill.price), exactOf(fill.amount)));
}

/**
 * The 30-day volume standing before grants: every fill of the user's connections on affiliate
 * exchanges executed in [now - 30 days, now], summed exactly; `qualifies` needs at least one such
 * connection and a total at or above the threshold.
 */
export async function volumeFigures(
  storage: Storage,
  userId: string,
  now: number,
  thresholdUsd: number,
): Promise<VolumeFigures> {
  const connections = (await storage.connections.byUser(userId)).filter((c) => AFFILIATE_IDS.has(c.venue));
  const start = now - VOLUME_WINDOW_DAYS * DAY_MS;
  const accounts = new Map<string, number>();
  for (const c of connections) accounts.set(c.venue, (accounts.get(c.venue) ?? 0) + 1);
  const per_exchange: PromotionVolumeExchange[] = [];
  let total = EXACT_ZERO;
  // Catalog order keeps the list stable; each exchange is read once across all the user's accounts there.
  for (const entry of EXCHANGE_CATALOG) {
    const count = accounts.get(entry.id);
    if (count === undefined) continue;
    const fills = await storage.fills.all({ user_id: userId, venue: entry.id, start, end: now });
    let sum = EXACT_ZERO;
    let counted = 0;
    for (const f of fills) {
      const notional = fillNotionalUsd(f);
      if (notional === null) continue;
      sum = addExact(sum, notional);
      counted++;
    }
    total = addExact(total, sum);
    per_exchange.push({
      connection_id: entry.id,
      name: entry.name,
      accounts: count,
      volume_30d_usd: exactToNumber(sum),
      counted_fills: counted,
      uncounted_fills: fills.length - counted,
    });
  }
  const qualifies = per_exchange.length > 0 && compareExact(total, exactOf(thresholdUsd)) >= 0;
  return { per_exchange, total_30d_usd: exactToNumber(total), threshold_usd: thresholdUsd, qualifies };
}

/** The user's valid affiliate-earned Elite grant with the latest expiry, or null. */
export async function affiliateEliteGrant(
  storage: Storage,
  userId: string,
  now: number,
): Promise<TierGrantRecord | null> {
  let best: TierGrantRecord | null = null;
  for (const g of await storage.grants.active(userId, now)) {
    if (g.source === 'affiliate' && g.tier === 'elite' && (best === null || g.expires_at > best.expires_at)) best = g;
  }
  return best;
}

/** Length of the affiliate-earned Elite grant. */
export const AFFILIATE_ELITE_DAYS = 30;

/**
 * `GET /v1/promotions/volume`: the figures, and while the user qualifies an
 * Elite grant from source `affiliate` for 30 days unless one is still valid (idempotent: reading the
 * standing again grants nothing new). A grant outlives a later drop in volume until it expires.
 */
export async function readVolumeStanding(
  storage: Storage,
  userId: string,
  now: number,
  thresholdUsd: number,
): Promise<VolumeStanding> {
  const figures = await volumeFigures(storage, userId, now, thresholdUsd);
  let held = await affiliateEliteGrant(storage, userId, now);
  if (figures.qualifies && held === null) {
    held = await storage.affiliateGrants.grantIfAbsent(
      {
        id: randomUUID(),
        user_id: userId,
        tier: 'elite',
        source: 'affiliate',
        granted_at: now,
        expires_at: now + AFFILIATE_ELITE_DAYS * DAY_MS,
      },
      now,
    );
    forgetUser(userId);
  }
  return {
    ...figures,
    granted_via_promotion: held !== null,
    promotion_expires_at: held === null ? null : new Date(held.expires_at).toISOString(),
  };
}
