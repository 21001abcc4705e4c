import type { Direction } from '../plan/plan.js';
import type { AssetRef } from './asset.js';
import { checkArray, type Dec, dec, fieldsOf, isoOrNull, toNum } from './internal.js';

/**
 * How a perpetual settles: `linear` (size in base units, PnL in the quote currency, e.g. BTC/USDT)
 * or `inverse` (size in quote units, e.g. USD contracts, PnL in the base coin, e.g. BTC/USD coin-margined).
 */
export type ContractType = 'linear' | 'inverse';

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * One open position as a venue adapter reads it (the exchanges port's `VenuePosition`, with the user
 * connection and exchange ids), plus the market data needed to price it and the protective-order sync
 * (stop / take-profit) and funding the account service keeps. All prices
 * are in the instrument's quote currency, all money in its settlement currency (quote for linear,
 * base for inverse), times in ms since the epoch (UTC).
 *
 * Venues write "not set" as 0: a price, leverage or USD rate that is zero or negative is read as
 * absent (null), so an unset stop is null, never 0. NaN or Infinity anywhere is bad input.
 */
export interface PositionInput {
  /** Stored position id. */
  id: string;
  /** The user's connected account. */
  user_connection_id: string;
  /** The exchange id. */
  connection_id: string;
  /** The venue's native instrument name (`BTCUSDT`, `BTC-USDT-SWAP`, `AAPLUSDT`), never synthesized. */
  pair: string;
  /** The tracked asset the instrument maps to; null when it maps to none. */
  asset: AssetRef | null;
  /** Null when the venue does not say (the assessment then reports direction-dependent fields as null). */
  side: Direction | null;
  /** Open size, positive: base units for linear contracts, quote units for inverse ones. */
  size: number;
  /** Default `linear`. */
  contract_type?: ContractType;
  /** Currency money fields are in (`USDT`, `BTC`, ...); uppercased on output. */
  settlement_currency?: string | null;
  /** Average entry price. */
  entry_price: number | null;
  leverage?: number | null;
  /** Margin posted for the position (isolated margin, or the venue's initial margin); settlement currency. */
  margin?: number | null;
  /** Maintenance margin the venue requires; settlement currency. */
  maintenance_margin?: number | null;
  liquidation_price?: number | null;
  opened_at?: number | null;
  updated_at?: number | null;
  /** Mark price; null (or 0) when the position cannot be priced. */
  mark_price: number | null;
  /** When the mark was read. */
  mark_time?: number | null;
  /** Price 24 hours and 7 days before `mark_time`, for the daily and weekly PnL. */
  price_24h_ago?: number | null;
  price_7d_ago?: number | null;
  /** USD per unit of the settlement currency (1 for USD and USD stablecoins); null when unknown. */
  usd_rate?: number | null;
  /** Protective levels from the venue's protective-order sync only; null or 0 when that leg is not set. */
  stop_loss?: number | null;
  take_profit?: number | null;
  /** Last successful protective-order read; null when none ever succeeded. */
  protective_levels_synced_at?: number | null;
  /** Cumulative funding paid since open (settlement currency, negative = received); null = not reported. */
  funding_since_open?: number | null;
  notes?: string | null;
}

/**
 * A position on the wire (`GET /v2/positions`, MCP `get_positions`): the contract's PositionExtended.
 * Figures that need the mark (`current_price`, `market_value*`, `unrealized_pnl*`, `daily_pnl*`,
 * `weekly_pnl*`, `margin_ratio`, `distance_to_liquidation`, `ticker_last_updated`) are null when the
 * position is unpriced, never 0. `*_usd` figures are also null when the USD rate is unknown.
 * Dates are ISO 8601 UTC strings.
 */
export interface PositionExtended {
  id: string;
  user_connection_id: string;
  connection_id: string;
  asset: AssetRef | null;
  pair: string;
  side: Direction | null;
  size: number;
  contract_type: ContractType;
  settlement_currency: string | null;
  entry_price: number | null;
  leverage: number | null;
  margin: number | null;
  maintenance_margin: number | null;
  liquidation_price: number | null;
  opened_at: string | null;
  updated_at: string | null;
  /** The mark price. */
  current_price: number | null;
  /** Notional at the mark, positive for both sides: `size * mark` (linear) or `size / mark` (inverse). */
  market_value: number | null;
  market_value_usd: number | null;
  /** `side * size * (mark - entry)` (linear) or `side * size * (1 / entry - 1 / mark)` (inverse). */
  unrealized_pnl: number | null;
  unrealized_pnl_usd: number | null;
  /** PnL of the last 24 hours: from the price 24 h before the mark, or from the entry if opened since. */
  daily_pnl: number | null;
  daily_pnl_usd: number | null;
  /** As `daily_pnl` over 7 days. */
  weekly_pnl: number | null;
  weekly_pnl_usd: number | null;
  /** `margin * usd_rate`. */
  margin_usd: number | null;
  /**
   * `maintenance_margin / (margin + unrealized_pnl)` (ccxt's marginRatio; 1 = liquidation); null when
   * equity <= 0, or so close to 0 that the ratio is past the largest float.
   */
  margin_ratio: number | null;
  /** `side * (mark - liquidation_price) / mark * 100`: positive while the mark is on the safe side. */
  distance_to_liquidation: number | null;
  /** When the mark was read. */
  ticker_last_updated: string | null;
  stop_loss: number | null;
  take_profit: number | null;
  protective_levels_synced_at: string | null;
  funding_since_open: number | null;
  notes: string;
  /** Always false; retained only for old clients. */
  visible: false;
}

const SIDES: readonly Direction[] = ['long', 'short'];
const CONTRACT_TYPES: readonly ContractType[] = ['linear', 'inverse'];

/**
 * Normalizes one venue position into the wire {@link PositionExtended}:
 * unpriced (no positive mark) means null for every mark-dependent figure, never 0; `stop_loss` and
 * `take_profit` come only from the protective-order sync and an unset leg is null; `funding_since_open`
 * stays null when not reported; `visible` is always false.
 *
 * Money is computed in decimal (decimal.js, 60 digits; see `Dec`) from the input numbers read by their
 * shortest decimal form, and each figure is the exact result rounded once to a double (`toNumber()`),
 * so `3 * (0.3 - 0.1)` is `0.6`, not `0.6000000000000001`. `*_usd` figures multiply the exact settlement
 * figure by `usd_rate` before that single rounding. Daily / weekly PnL measure from the price 24 h / 7 d
 * before `mark_time`, or from the entry when `opened_at` is inside that window; null when that reference
 * price is unknown.
 * `index` only names the row in error messages.
 * @throws InputError on a malformed record (missing ids, side not long/short/null, size not positive,
 * NaN or Infinity in a number, a time outside Date's range).
 */
export function normalizePosition(position: PositionInput, index?: number): PositionExtended {
  const f = fieldsOf(position, 'position', index);
  const raw = position as unknown as Record<string, unknown>;
  const side = raw.side === null || raw.side === undefined ? null : f.choice('side', SIDES);
  const size = f.number('size');
  if (!(size > 0)) f.fail('size', `must be positive, got ${size}`);
  const contractType = raw.contract_type === undefined ? 'linear' : f.choice('contract_type', CONTRACT_TYPES);
  const settlement = f.stringOrNull('settlement_currency');
  const entry = f.positiveOrNull('entry_price');
  const leverage = f.positiveOrNull('leverage');
  const margin = f.nonNegativeOrNull('margin');
  const maintenance = f.nonNegativeOrNull('maintenance_margin');
  const liquidation = f.positiveOrNull('liquidation_price');
  const openedAt = f.timeOrNull('opened_at');
  const updatedAt = f.timeOrNull('updated_at');
  const mark = f.positiveOrNull('mark_price');
  const markTime = f.timeOrNull('mark_time');
  const price24h = f.positiveOrNull('price_24h_ago');
  const price7d = f.positiveOrNull('price_7d_ago');
  const usdRate = f.positiveOrNull('usd_rate');
  const stop = f.positiveOrNull('stop_loss');
  const target = f.positiveOrNull('take_profit');
  const syncedAt = f.timeOrNull('protective_levels_synced_at');
  const funding = f.numberOrNull('funding_since_open');
  const notes = f.stringOrNull('notes') ?? '';

  const sign = side === 'long' ? 1 : -1;
  const inverse = contractType === 'inverse';
  /** Exact PnL from `ref` to the mark, in the settlement currency; null without side, mark or reference. */
  const pnlFrom = (ref: number | null): Dec | null => {
    if (side === null || mark === null || ref === null) return null;
    const move = inverse ? dec(1).div(ref).minus(dec(1).div(mark)) : dec(mark).minus(ref);
    return move.times(size).times(sign);
  };
  const usd = (d: Dec | null): number | null => (d === null || usdRate === null ? null : toNum(d.times(usdRate)));
  const num = (d: Dec | null): number | null => (d === null ? null : toNum(d));
  /** The entry when the position opened inside the window ending at the mark, else the price `ago`. */
  const referenceFor = (windowMs: number, ago: number | null): number | null =>
    openedAt !== null && markTime !== null && openedAt > markTime - windowMs ? entry : ago;

  const value = mark === null ? null : inverse ? dec(size).div(mark) : dec(size).times(mark);
  const pnl = pnlFrom(entry);
  const daily = pnlFrom(referenceFor(DAY_MS, price24h));
  const weekly = pnlFrom(referenceFor(WEEK_MS, price7d));
  let marginRatio: number | null = null;
  if (pnl !== null && margin !== null && maintenance !== null) {
    const equity = pnl.plus(margin);
    if (equity.greaterThan(0)) {
      // an equity within a few ulps of 0 (a denormal margin) puts the ratio past the float range
      const ratio = toNum(dec(maintenance).div(equity));
      marginRatio = Number.isFinite(ratio) ? ratio : null;
    }
  }
  const distance =
    mark === null || liquidation === null || side === null ? null : ((mark - liquidation) * sign * 100) / mark || 0;
  const asset = raw.asset ?? null;
  if (asset !== null && (typeof asset !== 'object' || typeof (asset as AssetRef).id !== 'string')) {
    f.fail('asset', 'must be an asset object with a string id, or null');
  }

  return {
    id: f.string('id'),
    user_connection_id: f.string('user_connection_id'),
    connection_id: f.string('connection_id'),
    asset: asset as AssetRef | null,
    pair: f.string('pair'),
    side,
    size,
    contract_type: contractType,
    settlement_currency: settlement === null ? null : settlement.toUpperCase(),
    entry_price: entry,
    leverage,
    margin,
    maintenance_margin: maintenance,
    liquidation_price: liquidation,
    opened_at: isoOrNull(openedAt),
    updated_at: isoOrNull(updatedAt),
    current_price: mark,
    market_value: num(value),
    market_value_usd: usd(value),
    unrealized_pnl: num(pnl),
    unrealized_pnl_usd: usd(pnl),
    daily_pnl: num(daily),
    daily_pnl_usd: usd(daily),
    weekly_pnl: num(weekly),
    weekly_pnl_usd: usd(weekly),
    margin_usd: margin === null ? null : usd(dec(margin)),
    margin_ratio: marginRatio,
    distance_to_liquidation: distance,
    ticker_last_updated: mark === null ? null : isoOrNull(markTime),
    stop_loss: stop,
    take_profit: target,
    protective_levels_synced_at: isoOrNull(syncedAt),
    funding_since_open: funding,
    notes,
    visible: false,
  };
}

/**
 * {@link normalizePosition} over a list, in input order. All open positions, priced or not, stay in the
 * one list (contract 2.6). @throws InputError naming `position[i].field` on a malformed record.
 */
export function normalizePositions(positions: readonly PositionInput[]): PositionExtended[] {
  return checkArray(positions, 'positions').map((p, i) => normalizePosition(p, i));
}
