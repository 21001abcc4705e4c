import { FREE_SIGNAL_ROWS } from '@marketlens/contract';
import {
  computeContext,
  fearGreed,
  filterSignals,
  InputError,
  runScreeners,
  SIGNAL_CONTROLS,
  type SignalControls,
  type SignalRow,
  type SignalSort,
  signal,
  signalRow,
} from '@marketlens/core';
import { type Asset, TIMEFRAME_MS } from '@marketlens/exchanges';
import { isAtLeast } from '../auth/tiers.js';
import type { AssetClassFilter } from '../market/assets.js';
import { type AssetRef, assetRef } from '../market/assets.js';
import { iso, marketOf, venueSnapshot } from '../market/market.js';
import type { VenueSnapshot } from '../market/quotes.js';
import { cachedOverClass, classSeries } from '../market/universe-series.js';
import type { AppDeps, Caller } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { SIGNAL_TIMEFRAMES } from '../platform/product-rules.js';
import { tierOf } from './analysis.js';
import { analyzeOptionsOf } from './plan-costs.js';

export type SignalTimeframe = (typeof SIGNAL_TIMEFRAMES)[number];

/** Rows a free caller's signal list holds at most (the top of the default sort): published, in the contract. */
export { FREE_SIGNAL_ROWS };

/** The perpetual funding rate of an asset in a venue snapshot, or null when it has no perpetual. */
export function fundingRateOf(snapshot: VenueSnapshot, assetId: string): number | null {
  for (const q of snapshot.byAsset.get(assetId) ?? []) {
    if (q.market.market_type === 'derivatives' && q.funding) return q.funding.rate;
  }
  return null;
}

type Hit<T> = Omit<T, 'asset_id'> & { asset: AssetRef };

function withAsset<T extends { asset_id: string }>(byId: ReadonlyMap<string, Asset>, hits: readonly T[]): Hit<T>[] {
  const out: Hit<T>[] = [];
  for (const { asset_id, ...rest } of hits) {
    const asset = byId.get(asset_id);
    if (asset) out.push({ ...rest, asset: assetRef(asset) });
  }
  return out;
}

/**
 * `GET /v2/assets/screener`: breakouts, oversold zones and volume surges over a class on `d1`
 * (stablecoins left out), computed once per (class, last d1 candle) and minute.
 */
export function screenerOf(deps: AppDeps, filter: AssetClassFilter) {
  return classSeries(deps, filter, 'd1').then((cls) =>
    cachedOverClass(deps, `screener|${filter}|${cls.last_open}`, async () => {
      const assets = cls.assets.filter((a) => !a.asset.is_stablecoin);
      const byId = new Map(assets.map((a) => [a.asset.id, a.asset]));
      const result = runScreeners(assets.map((a) => ({ asset_id: a.asset.id, candles: a.series.candles })));
      return {
        asset_class: filter,
        timeframe: 'd1' as const,
        as_of: iso(cls.as_of),
        assets_screened: assets.length - result.errors.length,
        breakouts: withAsset(byId, result.breakouts),
        oversold: withAsset(byId, result.oversold),
        volume_surges: withAsset(byId, result.volume_surges),
      };
    }),
  );
}

interface RowsOfClass {
  /** Open time of the newest closed candle the rows were computed on. */
  as_of: number;
  rows: SignalRow[];
  byId: ReadonlyMap<string, Asset>;
}

/** Signal rows of every (non-stable) asset of a class, Fear & Greed with perpetual funding as in analyses. */
function signalRowsOf(deps: AppDeps, filter: AssetClassFilter, timeframe: SignalTimeframe): Promise<RowsOfClass> {
  return classSeries(deps, filter, timeframe).then((cls) =>
    cachedOverClass(deps, `signals|${filter}|${timeframe}|${cls.last_open}`, async () => {
      const snapshot = await venueSnapshot(deps);
      const venue = marketOf(deps).venue;
      const rows: SignalRow[] = [];
      const byId = new Map<string, Asset>();
      for (const { asset, series } of cls.assets) {
        if (asset.is_stablecoin) continue;
        try {
          const ctx = computeContext(series.candles);
          const fg = fearGreed(ctx, { funding: fundingRateOf(snapshot, asset.id) });
          // Calls are judged by their plan at the asset class's cost, as the analysis publishes them.
          const o = analyzeOptionsOf(deps.config.planCosts, asset, venue, deps.config.signalMinExpectedR, {
            time: series.candles.time,
            stepMs: TIMEFRAME_MS[timeframe],
          });
          const sig = signal(ctx, { fearGreed: fg, plan: o.plan, minExpectedR: o.signal?.minExpectedR });
          rows.push(signalRow(asset.id, ctx, { fearGreed: fg, signal: sig }));
          byId.set(asset.id, asset);
        } catch (err) {
          // Candles the engine refuses leave the asset out of the list.
          if (!(err instanceof InputError)) throw err;
        }
      }
      return { as_of: cls.as_of, rows, byId };
    }),
  );
}

/** Names of the controls present in a query (whatever their value). */
export function controlsUsed(query: Readonly<Record<string, unknown>>): string[] {
  return SIGNAL_CONTROLS.map((c) => c.name).filter((name) => query[name] !== undefined);
}

/** Whether the caller may use the signal controls (Pro or Elite; an unreadable subscription is free). */
export function mayUseSignalControls(caller: Caller): boolean {
  return isAtLeast(tierOf(caller), 'pro');
}

/** A free caller naming any control is refused with 402 `SignalControlsRestricted`. */
export function checkSignalControlAccess(used: readonly string[], caller: Caller): void {
  if (used.length > 0 && !mayUseSignalControls(caller)) {
    throw new AppError(
      'SignalControlsRestricted',
      `Signal list controls require Pro (used: ${used.join(', ')}); without them the list is the top ${FREE_SIGNAL_ROWS} by confidence`,
    );
  }
}

export interface SignalListQuery {
  timeframe: SignalTimeframe;
  asset_class: AssetClassFilter;
  limit: number;
}

/**
 * `GET /v2/assets/signals`: the signal rows of a class filtered and sorted by the controls.
 * Free callers (no controls, see {@link checkSignalControlAccess}) get the top
 * {@link FREE_SIGNAL_ROWS} by the default sort.
 */
export async function signalListOf(deps: AppDeps, q: SignalListQuery, controls: SignalControls, paid: boolean) {
  const { as_of, rows, byId } = await signalRowsOf(deps, q.asset_class, q.timeframe);
  let kept: SignalRow[];
  try {
    kept = filterSignals(rows, controls);
  } catch (err) {
    if (err instanceof InputError) throw new AppError('InvalidRequest', `Invalid query: ${err.message}`);
    throw err;
  }
  const limit = paid ? q.limit : Math.min(q.limit, FREE_SIGNAL_ROWS);
  const sort: SignalSort = controls.sort ?? 'confidence_desc';
  return {
    timeframe: q.timeframe,
    asset_class: q.asset_class,
    as_of: iso(as_of),
    sort,
    total: kept.length,
    limit,
    restricted: !paid,
    rows: withAsset(byId, kept.slice(0, limit)),
  };
}
