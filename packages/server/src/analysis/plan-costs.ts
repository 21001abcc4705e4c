import { type AnalyzeOptions, COST_MODELS, type CostModel, roundTripCostPct } from '@marketlens/core';
import { type Asset, type AssetClass, calendarOf, sessionTemplate } from '@marketlens/exchanges';

/** A cost override of the operator: an asset class, on one venue or on all, at these fees and spread. */
export interface PlanCostOverride {
  asset_class: AssetClass;
  /** The venue it applies to (`binance`, `marketlens-sim`); null: every venue. */
  venue: string | null;
  feePct: number;
  spreadPct: number;
}

const ENTRY = /^([a-z]+)(?:@([A-Za-z0-9._-]+))?=([0-9.]+)\/([0-9.]+)$/;

/**
 * `MARKETLENS_PLAN_COSTS`: a comma list of `<class>[@<venue>]=<fee %>/<spread %>`, e.g.
 * `coins=0.05/0.02,coins@kraken=0.26/0.03,fx=0.002/0.004`: the taker fee per side and the spread,
 * in % of the price. A venue entry wins over a class entry; a class without one keeps core's
 * `COST_MODELS`. Throws a message naming the bad entry.
 */
export function parsePlanCosts(raw: string | undefined): PlanCostOverride[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((item) => {
    const text = item.trim();
    const m = ENTRY.exec(text);
    const fee = m ? Number(m[3]) : Number.NaN;
    const spread = m ? Number(m[4]) : Number.NaN;
    if (!m || !Object.hasOwn(COST_MODELS, m[1]) || !(fee >= 0 && fee <= 50) || !(spread >= 0 && spread <= 100)) {
      throw new Error(
        `MARKETLENS_PLAN_COSTS: '${text}' is not <class>[@<venue>]=<fee %>/<spread %> with a class among ${Object.keys(COST_MODELS).join(', ')}, a fee 0..50 and a spread 0..100`,
      );
    }
    return { asset_class: m[1] as AssetClass, venue: m[2] ?? null, feePct: fee, spreadPct: spread };
  });
}

/** The cost model of an asset class on a venue: the operator's venue entry, class entry, else core's table. */
export function costModelOf(overrides: readonly PlanCostOverride[], assetClass: AssetClass, venue: string): CostModel {
  const own = (v: string | null) => overrides.find((o) => o.asset_class === assetClass && o.venue === v);
  const o = own(venue) ?? own(null);
  return o === undefined ? COST_MODELS[assetClass] : { feePct: o.feePct, spreadPct: o.spreadPct };
}

/**
 * The options every published analysis of an asset is computed with: the plan's cost filter and
 * net risk-reward use the round trip of the asset's market on `venue` ({@link costModelOf}). The
 * analysis routes, zone alerts and their evaluation all use it, so an alert watches the very plan
 * the analysis publishes. Without an asset (unknown to the universe), core's 0.20% default.
 * `minExpectedR` (the operator's `MARKETLENS_SIGNAL_MIN_EXPECTED_R`) sets the signal's edge floor.
 * With the analysed closed candles' `series` (their open times and spacing), the plan also knows
 * the candles left in the session ({@link sessionBarsLeftOf}: no entry in a session's last candle
 * of an intraday stock or index analysis, issue 38.2).
 */
export function analyzeOptionsOf(
  overrides: readonly PlanCostOverride[] | undefined,
  asset: Pick<Asset, 'asset_class'> | undefined,
  venue: string,
  minExpectedR?: number,
  series?: { time: ArrayLike<number>; stepMs: number },
): AnalyzeOptions {
  const signal = minExpectedR === undefined ? {} : { signal: { minExpectedR } };
  if (asset === undefined) return signal;
  const model = costModelOf(overrides ?? [], asset.asset_class, venue);
  const costPct = roundTripCostPct({ assetClass: asset.asset_class, ...model });
  const sessionBarsLeft = series && sessionBarsLeftOf(asset.asset_class, series.time, series.stepMs);
  return { ...signal, plan: sessionBarsLeft === undefined ? { costPct } : { costPct, sessionBarsLeft } };
}

/**
 * The round-trip cost, in % of the price, of the plans published on an asset of `assetClass` on
 * `venue`: what their net risk-reward, their signal's expected R and their track record
 * deduct ({@link costModelOf}).
 */
export function planCostOf(
  overrides: readonly PlanCostOverride[] | undefined,
  assetClass: AssetClass,
  venue: string,
): number {
  const model = costModelOf(overrides ?? [], assetClass, venue);
  return roundTripCostPct({ assetClass, ...model });
}

const DAY_MS = 86_400_000;

/**
 * The `sessionBarsLeft` of a plan (core's `PlanOptions`) for an analysis of closed candles `time`,
 * `stepMs` apart, of an asset of `assetClass`: the candles of the session that follow the last one,
 * read from the market's calendar (`calendarOf`: stocks and indices trade in sessions) and the
 * session the series shows (`sessionTemplate`: the day's first and last candle open over at least
 * 20 trading days). 0 when the last candle closed its session (the next one opens a session, no
 * cut). Undefined (no session: core cuts nothing) for a market that trades always or on weekdays
 * (coins, fx), daily and longer candles, and a series too short to show its session.
 */
export function sessionBarsLeftOf(
  assetClass: AssetClass | undefined,
  time: ArrayLike<number>,
  stepMs: number,
): number | undefined {
  const n = time.length;
  if (calendarOf(assetClass) !== 'sessions' || !(stepMs < DAY_MS) || n === 0) return undefined;
  const template = sessionTemplate(time, stepMs);
  if (template === null) return undefined;
  const tod = ((time[n - 1] % DAY_MS) + DAY_MS) % DAY_MS;
  if (tod < template.first || tod >= template.last) return 0;
  return Math.floor((template.last - tod) / stepMs);
}
