import { InputError } from '../errors.js';
import { checkNumber } from '../indicators/internal/validate.js';
import type { AssetClass } from '../portfolio/asset.js';

/** What one market charges a trader who enters and exits with market orders. */
export interface CostModel {
  /** Taker fee (commission) per side, in % of the traded value. */
  feePct: number;
  /** Bid-ask spread in % of the price; a round trip crosses half of it twice, so it pays it once. */
  spreadPct: number;
}

/**
 * Typical costs per asset class, for a retail account at a large venue, trading liquid instruments
 * with market orders (the plan's stop and targets are taken as taker fills):
 * - `coins`: 0.10% taker per side (the base tier of the large spot venues, Binance's VIP 0 among
 *   them) and a 0.02% spread (majors on such a venue; small caps are wider). Round trip 0.22%.
 * - `stocks`: 0.01% per side (a $0.005 per-share commission, IBKR Pro "Fixed", on a $50 share;
 *   commission-free brokers charge nothing, regulatory fees on sales are about 0.003%) and a 0.03%
 *   spread (one or two cents on a large cap). Round trip 0.05%.
 * - `fx`: 0.0035% per side (USD 3.50 per 100,000 lot per side on a raw-spread account) and a 0.005%
 *   spread (about half a pip on a major pair; crosses are wider). Round trip 0.012%, about 1.3 pips
 *   on EUR/USD.
 * - `external` (on-chain assets): 0.30% per swap (the standard Uniswap v3 pool fee tier; 0.05% pools
 *   exist for blue-chip pairs) and 0.10% of price impact in place of a spread. Gas, a fixed amount
 *   rather than a share of the trade, is not included. Round trip 0.70%.
 * Slippage beyond the quoted spread is not modelled. Pass a venue's own figures to
 * {@link roundTripCostPct} when they are known.
 */
export const COST_MODELS: Readonly<Record<AssetClass, Readonly<CostModel>>> = Object.freeze({
  coins: Object.freeze({ feePct: 0.1, spreadPct: 0.02 }),
  stocks: Object.freeze({ feePct: 0.01, spreadPct: 0.03 }),
  fx: Object.freeze({ feePct: 0.0035, spreadPct: 0.005 }),
  external: Object.freeze({ feePct: 0.3, spreadPct: 0.1 }),
});

/** Input of {@link roundTripCostPct}: an asset class, and the venue's own figures where known. */
export interface RoundTripCostInput {
  assetClass: AssetClass;
  /** The venue's taker fee per side in % (ccxt's `market.taker * 100`); default from {@link COST_MODELS}. */
  feePct?: number;
  /** The instrument's spread in % of the price; default from {@link COST_MODELS}. */
  spreadPct?: number;
}

/**
 * Round-trip cost in % of the entry price: `2 * feePct + spreadPct` (a fee on entry and on exit,
 * and half the spread crossed each way), from {@link COST_MODELS} for the asset class unless the
 * venue's figures are given. Pass it as `costPct` to `buildPlan` (and `simulatePlan`) so a plan's
 * cost filter and its net risk-reward use the market's cost, e.g.
 * `buildPlan(candles, levels, { costPct: roundTripCostPct({ assetClass: 'coins', feePct: 0.05 }) })`
 * for a perpetual with a 0.05% taker fee.
 */
export function roundTripCostPct(input: RoundTripCostInput): number {
  const model = Object.hasOwn(COST_MODELS, input?.assetClass) ? COST_MODELS[input.assetClass] : undefined;
  if (model === undefined) {
    throw new InputError(
      'invalid_option',
      `assetClass must be one of ${Object.keys(COST_MODELS).join(', ')}, got ${String(input?.assetClass)}`,
      'assetClass',
    );
  }
  const fee = checkNumber('feePct', input.feePct ?? model.feePct, 0, 50);
  const spread = checkNumber('spreadPct', input.spreadPct ?? model.spreadPct, 0, 100);
  // rounded to 1e-10 so that binary fractions read as the decimal figures they stand for (0.22, not 0.22000000000000003)
  return Math.round((2 * fee + spread) * 1e10) / 1e10;
}
