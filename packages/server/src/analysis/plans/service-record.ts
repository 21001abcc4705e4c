import {
  AssetClassSchema,
  CALIBRATION_BUCKETS,
  type ServiceTrackRecord,
  TIMEFRAMES,
  type Timeframe,
  type TrackRecordGroup,
  type TrackRecordQuery,
} from '@marketlens/contract';
import type { AssetClass } from '@marketlens/exchanges';
import { iso, marketOf, universeOf } from '../../market/market.js';
import type { AppDeps } from '../../platform/deps.js';
import type { PlanAggregate } from '../../storage/plans-types.js';
import type { Storage } from '../../storage/types.js';
import { backtestWire, latestBacktest } from '../backtest/backtest.js';
import { planCostOf } from '../plan-costs.js';
import { allLiveTrades, type LiveTrade, liveWire } from './live-record.js';
import { figuresOf, RESOLVED_OUTCOMES } from './track-record.js';

/**
 * How long the service-wide sums serve before the database is asked again. They scan every
 * published plan, and a minute is short beside the life of a plan (hours to weeks).
 */
export const SERVICE_RECORD_TTL_MS = 60_000;

const CLASSES = AssetClassSchema.options;

/** When the sums of every published plan were read, and the read. */
interface PlanSums {
  at: number;
  value: Promise<PlanAggregate[]>;
}

/**
 * The sums of every published plan in `storage`, read at most once per
 * {@link SERVICE_RECORD_TTL_MS}: a reader holds the sums it read, so one is made per app.
 */
export function planSumsReader(storage: Storage): (now: number) => PlanSums {
  let cached: PlanSums | undefined;
  return (now) => {
    if (cached !== undefined && now >= cached.at && now - cached.at < SERVICE_RECORD_TTL_MS) return cached;
    const entry: PlanSums = { at: now, value: storage.publishedPlans.aggregate(CALIBRATION_BUCKETS) };
    cached = entry;
    // A failed read is not kept: the next request asks again.
    entry.value.catch(() => {
      if (cached === entry) cached = undefined;
    });
    return entry;
  };
}

/** Reads the sums of every published plan (see {@link planSumsReader}). */
export type PlanSumsReader = ReturnType<typeof planSumsReader>;

/** The resolved live calls read with each read of the sums, so they are kept exactly as long. */
const liveReads = new WeakMap<PlanSums, Promise<LiveTrade[]>>();

/** The resolved live calls of every (asset, timeframe) the sums show a resolved plan on, read once per read of the sums. */
function liveTradesWith(storage: Storage, entry: PlanSums): Promise<LiveTrade[]> {
  let read = liveReads.get(entry);
  if (read === undefined) {
    read = entry.value.then((rows) => {
      const series = new Map<string, { asset_id: string; timeframe: string }>();
      for (const r of rows) {
        if (RESOLVED_OUTCOMES.includes(r.outcome)) series.set(`${r.asset_id}\u0000${r.timeframe}`, r);
      }
      return allLiveTrades(storage, series.values());
    });
    liveReads.set(entry, read);
  }
  return read;
}

/**
 * The class of the asset a plan was published on: as the asset universe carries it, else (an asset
 * the universe no longer lists) by the id's prefix, `stock-` and `fx-`, coins otherwise.
 */
function classOf(deps: AppDeps, assetId: string): AssetClass {
  const asset = universeOf(marketOf(deps)).get(assetId);
  if (asset !== undefined) return asset.asset_class;
  if (assetId.startsWith('stock-')) return 'stocks';
  if (assetId.startsWith('fx-')) return 'fx';
  return 'coins';
}

/**
 * The service's track record over every plan it published, grouped by timeframe and asset class
 * (only groups with plans, by timeframe then class, each with the round trip its plans are scored
 * with: the class's, as the plans use), with the total over the groups; `query`
 * narrows it to a timeframe, an asset class or both. The database sums the plans; `sums` keeps
 * them a minute.
 */
export async function serviceTrackRecord(
  deps: AppDeps,
  sums: PlanSumsReader,
  query: TrackRecordQuery,
): Promise<ServiceTrackRecord> {
  const entry = sums(deps.now());
  const { at, value } = entry;
  const venue = marketOf(deps).venue;
  const costOf = (c: AssetClass) => planCostOf(deps.config.planCosts, c, venue);
  const classes = new Map<string, AssetClass>();
  const groups = new Map<string, { timeframe: Timeframe; asset_class: AssetClass; rows: PlanAggregate[] }>();
  const kept: PlanAggregate[] = [];
  for (const row of await value) {
    const timeframe = TIMEFRAMES.find((tf) => tf === row.timeframe);
    if (timeframe === undefined || (query.timeframe !== undefined && timeframe !== query.timeframe)) continue;
    let assetClass = classes.get(row.asset_id);
    if (assetClass === undefined) {
      assetClass = classOf(deps, row.asset_id);
      classes.set(row.asset_id, assetClass);
    }
    if (query.asset_class !== undefined && assetClass !== query.asset_class) continue;
    const key = `${timeframe}/${assetClass}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { timeframe, asset_class: assetClass, rows: [] };
      groups.set(key, group);
    }
    group.rows.push(row);
    kept.push(row);
  }
  const ordered: TrackRecordGroup[] = [...groups.values()]
    .sort(
      (a, b) =>
        TIMEFRAMES.indexOf(a.timeframe) - TIMEFRAMES.indexOf(b.timeframe) ||
        CLASSES.indexOf(a.asset_class) - CLASSES.indexOf(b.asset_class),
    )
    .map((g) => ({
      timeframe: g.timeframe,
      asset_class: g.asset_class,
      cost_pct: costOf(g.asset_class),
      ...figuresOf(g.rows),
    }));
  // One cost for the whole answer when its classes share one (or a class filter names one).
  const costs = new Set(ordered.map((g) => g.cost_pct));
  if (query.asset_class !== undefined) costs.add(costOf(query.asset_class));
  const live = (await liveTradesWith(deps.storage, entry)).filter(
    (t) =>
      (query.timeframe === undefined || t.timeframe === query.timeframe) &&
      (query.asset_class === undefined || (classes.get(t.asset_id) ?? classOf(deps, t.asset_id)) === query.asset_class),
  );
  const backtest = backtestWire(await latestBacktest(deps), {
    ...(query.timeframe === undefined ? {} : { timeframe: query.timeframe }),
    ...(query.asset_class === undefined ? {} : { asset_class: query.asset_class }),
  });
  return {
    as_of: iso(at),
    cost_pct: costs.size === 1 ? [...costs][0] : null,
    timeframe: query.timeframe ?? null,
    asset_class: query.asset_class ?? null,
    total: figuresOf(kept),
    groups: ordered,
    live: liveWire(live),
    backtest,
  };
}
