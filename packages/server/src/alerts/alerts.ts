import { randomUUID } from 'node:crypto';
import { alertWire, type Notification, type NotificationKind, type NotificationPayload } from '@marketlens/contract';
import { analyze, rsi } from '@marketlens/core';
import { type Asset, candleOpenTime, type MarketData, type Ticker, type Timeframe } from '@marketlens/exchanges';
import { analysisOf } from '../analysis/analysis.js';
import { analyzeOptionsOf } from '../analysis/plan-costs.js';
import { isAtLeast } from '../auth/tiers.js';
import { requireVerifiedEmail } from '../auth/verification/verification.js';
import { assetRef, requireAsset } from '../market/assets.js';
import { marketOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import { ALERT_KINDS } from '../platform/product-rules.js';
import type { AlertDirection, AlertRecord } from '../storage/alerts-types.js';
import type { Tier } from '../storage/types.js';
import { ALERT_RSI_PERIOD, distancePct, evalWindowOf } from './evaluate.js';
import { alertLimitOf, MAX_DISABLED_ALERTS } from './limits.js';
import { nextStatus, ownerEvent } from './status.js';

/** An active alert that has not fired within this long after (re)arming expires. */
export const ALERT_TTL_MS = 90 * 86_400_000;
/** Price-level targets (price, zone, breakout) must lie within this factor of the live price either way. */
export const PRICE_BAND = 10;
/** Request timeframes shorter than an hour: Pro only. */
export const SUB_HOUR_TIMEFRAMES: readonly string[] = ['m5', 'm15', 'm30'];
/** Candles an alert's live figures and zones are read from. */
const DEPTH = 500;

/** What a payload resolves to once checked against the catalog and the live market. */
interface Resolved {
  asset: Asset;
  kind: NotificationKind;
  timeframe: string | null;
  evaluates_as: string | null;
  target: number;
  direction: AlertDirection;
  zone_low: number | null;
  zone_high: number | null;
  reference: number | null;
}

/** The evaluation window of a timeframe-reading kind as a candle timeframe. */
function windowTimeframe(evaluatesAs: string | null): Timeframe {
  return evaluatesAs === 'm15' || evaluatesAs === 'd1' ? evaluatesAs : 'h1';
}

async function closedCandles(market: MarketData, assetId: string, timeframe: Timeframe, now: number) {
  return (
    await venueCall(() =>
      market.candles({ asset_id: assetId, timeframe, limit: DEPTH, end: candleOpenTime(timeframe, now) }),
    )
  ).candles;
}

/**
 * Checks a payload: a known, non-stable asset (400), a timeframe its kind accepts
 * (400, `/v2/config` lists them), a target in range for its kind and near the live market (400),
 * and sub-1h timeframes only with Pro (402, code 1004). Resolves the window, the direction the
 * watched value must move (from where it stands now) and, for zone alerts, the zone's band.
 */
export async function resolvePayload(deps: AppDeps, tier: Tier, payload: NotificationPayload): Promise<Resolved> {
  const asset = requireAsset(deps, payload.asset_id);
  if (asset.is_stablecoin) {
    throw new AppError('StablecoinNotAnalyzed', `${asset.id} is a stablecoin; alerts on it are not offered`);
  }
  const kind = payload.kind;
  const def = ALERT_KINDS.find((k) => k.kind === kind);
  if (!def) throw new AppError('InvalidNotification', `Unknown alert kind '${kind}'`);
  const timeframe = payload.timeframe ?? null;
  let evaluatesAs: string | null = null;
  if (def.timeframes.length === 0) {
    if (timeframe !== null) throw new AppError('InvalidNotification', `A ${kind} alert reads no timeframe`);
  } else {
    const entry = def.timeframes.find((t) => t.value === timeframe);
    if (!entry) {
      throw new AppError(
        'InvalidNotification',
        `A ${kind} alert needs a timeframe among ${def.timeframes.map((t) => t.value).join(', ')}`,
      );
    }
    evaluatesAs = entry.evaluates_as;
  }

  const market = marketOf(deps);
  const now = deps.now();
  const target = payload.target;
  let direction: AlertDirection = 'above';
  let reference: number | null = null;
  let zone: { low: number; high: number } | null = null;
  const ticker = () => venueCall(() => market.ticker({ asset_id: asset.id }));
  const live = async () => (await ticker()).last;
  const inBand = (price: number) => {
    if (target > price * PRICE_BAND || target < price / PRICE_BAND) {
      throw new AppError(
        'TargetOutOfRange',
        `target ${target} is more than ${PRICE_BAND}x away from the live price ${price} of ${asset.id}`,
      );
    }
  };
  switch (kind) {
    case 'price':
    case 'breakout': {
      reference = await live();
      inBand(reference);
      direction = target >= reference ? 'above' : 'below';
      break;
    }
    case 'zone': {
      reference = await live();
      inBand(reference);
      const candles = await closedCandles(market, asset.id, windowTimeframe(evaluatesAs), now);
      const zones = tryAnalyze(deps, candles, asset)?.levels.zones ?? [];
      const hitZone = zones.find((z) => z.low <= target && target <= z.high);
      if (!hitZone) {
        throw new AppError(
          'TargetOutOfRange',
          `target ${target} lies in no published ${evaluatesAs} zone of ${asset.id} (${zones.map((z) => `${z.low}-${z.high}`).join(', ') || 'none'})`,
        );
      }
      if (reference >= hitZone.low && reference <= hitZone.high) {
        throw new AppError('TargetOutOfRange', `the price of ${asset.id} is inside that zone already`);
      }
      zone = { low: hitZone.low, high: hitZone.high };
      direction = hitZone.low > reference ? 'above' : 'below';
      break;
    }
    case 'rsi': {
      const candles = await closedCandles(market, asset.id, windowTimeframe(evaluatesAs), now);
      const values = rsi(candles.close, { period: ALERT_RSI_PERIOD });
      const last = values.length > 0 ? values[values.length - 1] : Number.NaN;
      reference = Number.isNaN(last) ? null : last;
      direction = reference === null || target >= reference ? 'above' : 'below';
      break;
    }
    case 'percent_change':
      // Armed with the column's change now, as the listing's live value reads it.
      reference = changeColumnOf(await ticker(), evaluatesAs);
      direction = target > 0 ? 'above' : 'below';
      break;
    case 'smart_zone': {
      // Armed with the price's distance from the entry zone published now; null while none is.
      const price = await live();
      const candles = await closedCandles(market, asset.id, windowTimeframe(evaluatesAs), now);
      const band = tryAnalyze(deps, candles, asset)?.zone.entry_zone ?? null;
      reference = band === null ? null : distancePct(price, band.low, band.high);
      direction = 'below';
      break;
    }
  }
  if (timeframe !== null && SUB_HOUR_TIMEFRAMES.includes(timeframe) && !isAtLeast(tier, 'pro')) {
    throw new AppError('AnalysisTimeframeRestricted', `Alerts on ${timeframe} (under an hour) require Pro`);
  }
  return {
    asset,
    kind,
    timeframe,
    evaluates_as: evaluatesAs,
    target,
    direction,
    zone_low: zone?.low ?? null,
    zone_high: zone?.high ?? null,
    reference,
  };
}

/** A ticker's % change over a percent-change alert's column (`1h`, `24h`, `7d`; 24h by default). */
function changeColumnOf(ticker: Ticker, column: string | null): number | null {
  if (column === '1h') return ticker.change_1h_pct;
  if (column === '7d') return ticker.change_7d_pct;
  return ticker.change_24h_pct;
}

function tryAnalyze(deps: AppDeps, candles: Parameters<typeof analyze>[0], asset: Asset) {
  try {
    return analyze(
      candles,
      analyzeOptionsOf(deps.config.planCosts, asset, marketOf(deps).venue, deps.config.signalMinExpectedR),
    );
  } catch {
    return null;
  }
}

function armed(r: Resolved, now: number) {
  return {
    asset_id: r.asset.id,
    kind: r.kind,
    timeframe: r.timeframe,
    evaluates_as: r.evaluates_as,
    target: r.target,
    direction: r.direction,
    zone_low: r.zone_low,
    zone_high: r.zone_high,
    reference: r.reference,
    updated_at: now,
    armed_at: now,
    expires_at: now + ALERT_TTL_MS,
    triggered_at: null,
    trigger_value: null,
    trigger_candle: null,
    last_evaluated_open: null,
  };
}

function limitError(cap: number): AppError {
  return new AppError(
    'NotificationLimitExceeded',
    `A basic account holds at most ${cap} active alerts; delete or pause one, or upgrade to Pro`,
  );
}

/** Refuses an alert becoming disabled when the user already keeps {@link MAX_DISABLED_ALERTS} paused ones. */
async function checkDisabledBound(deps: AppDeps, userId: string): Promise<void> {
  if ((await deps.storage.alerts.countByStatus(userId, 'disabled')) >= MAX_DISABLED_ALERTS) {
    throw new AppError(
      'NotificationLimitExceeded',
      `An account keeps at most ${MAX_DISABLED_ALERTS} paused alerts; delete one before pausing another`,
    );
  }
}

/**
 * `POST /v1/notifications`: 403 address not verified (where required), 400 bad payload, 402 limit
 * or sub-1h without Pro, 410 no active device.
 */
export async function createAlert(
  deps: AppDeps,
  userId: string,
  tier: Tier,
  payload: NotificationPayload,
): Promise<AlertRecord> {
  await requireVerifiedEmail(deps, userId);
  const resolved = await resolvePayload(deps, tier, payload);
  const status = nextStatus('active', ownerEvent(payload.enabled)) ?? 'active';
  const cap = alertLimitOf(tier);
  if (status === 'active' && cap !== null && (await deps.storage.alerts.countActive(userId)) >= cap) {
    throw limitError(cap);
  }
  if (status === 'disabled') await checkDisabledBound(deps, userId);
  // An alert needs somewhere to go: a push device, or an alert webhook (MCP-only users).
  if (
    (await deps.storage.pushDevices.countActive(userId)) === 0 &&
    (await deps.storage.alertWebhooks.countActive(userId)) === 0
  ) {
    throw new AppError(
      'NoActiveDevice',
      'Register a push device (POST /v1/devices) or an alert webhook (MCP register_alert_webhook) before creating an alert',
    );
  }
  const now = deps.now();
  const alert: AlertRecord = { id: randomUUID(), user_id: userId, status, created_at: now, ...armed(resolved, now) };
  if (!(await deps.storage.alerts.createIfBelow(alert, cap))) throw limitError(cap ?? 0);
  return alert;
}

/** `PATCH /v1/notifications/{id}`: replaces the payload and re-arms (see `ALERT_TRANSITIONS`). */
export async function updateAlert(
  deps: AppDeps,
  userId: string,
  tier: Tier,
  id: string,
  payload: NotificationPayload,
): Promise<AlertRecord> {
  const current = await requireAlert(deps, userId, id);
  const resolved = await resolvePayload(deps, tier, payload);
  const status = nextStatus(current.status, ownerEvent(payload.enabled)) ?? current.status;
  if (status === 'disabled' && current.status !== 'disabled') await checkDisabledBound(deps, userId);
  const now = deps.now();
  const next: AlertRecord = { ...current, status, ...armed(resolved, now) };
  const cap = alertLimitOf(tier);
  const result = await deps.storage.alerts.update(next, cap);
  if (result === 'missing') throw notFound(id);
  if (result === 'limit') throw limitError(cap ?? 0);
  return next;
}

/** `DELETE /v1/notifications/{id}`. */
export async function deleteAlert(deps: AppDeps, userId: string, id: string): Promise<void> {
  if (!(await deps.storage.alerts.remove(userId, id))) throw notFound(id);
}

async function requireAlert(deps: AppDeps, userId: string, id: string): Promise<AlertRecord> {
  const alert = await deps.storage.alerts.byId(userId, id);
  if (!alert) throw notFound(id);
  return alert;
}

function notFound(id: string): AppError {
  return new AppError('NotificationNotFound', `No alert '${id}' on this account`);
}

/** The live figures of an alert: the price, and the watched value of its kind now. */
interface LiveFigures {
  price: number | null;
  value: number | null;
  as_of: number | null;
}

type LiveCache = Map<string, Promise<LiveFigures>>;

/** Live figures per (asset, kind, window), read once per listing; a market that cannot answer gives nulls. */
function liveOf(deps: AppDeps, alert: AlertRecord, cache: LiveCache): Promise<LiveFigures> {
  const key = `${alert.asset_id}|${alert.kind}|${alert.evaluates_as ?? ''}`;
  let held = cache.get(key);
  if (!held) {
    held = readLive(deps, alert).catch(() => ({ price: null, value: null, as_of: null }));
    cache.set(key, held);
  }
  return held;
}

async function readLive(deps: AppDeps, alert: AlertRecord): Promise<LiveFigures> {
  const market = marketOf(deps);
  const ticker = await market.ticker({ asset_id: alert.asset_id });
  const price = ticker.last;
  let value: number | null = price;
  if (alert.kind === 'percent_change') {
    value = changeColumnOf(ticker, alert.evaluates_as);
  } else if (alert.kind === 'rsi') {
    value = null;
    const series = await market.candles({
      asset_id: alert.asset_id,
      timeframe: evalWindowOf(alert).timeframe,
      limit: DEPTH,
    });
    const values = rsi(series.candles.close, { period: ALERT_RSI_PERIOD });
    const last = values[values.length - 1];
    value = last === undefined || Number.isNaN(last) ? null : last;
  } else if (alert.kind === 'smart_zone') {
    const asset = requireAsset(deps, alert.asset_id);
    const result = await analysisOf(deps, market, asset, {
      asset_id: asset.id,
      timeframe: windowTimeframe(alert.evaluates_as),
      limit: DEPTH,
    });
    const band = result.analysis.zone.entry_zone;
    value = band === null ? null : distancePct(price, band.low, band.high);
  }
  return { price, value, as_of: ticker.time };
}

/** The published Notification: the alert and its body resolved with live target data. */
export async function alertViews(deps: AppDeps, alerts: readonly AlertRecord[]): Promise<Notification[]> {
  const cache: LiveCache = new Map();
  return Promise.all(alerts.map(async (a) => alertView(deps, a, await liveOf(deps, a, cache))));
}

function alertView(deps: AppDeps, a: AlertRecord, live: LiveFigures): Notification {
  const asset = (() => {
    try {
      return assetRef(requireAsset(deps, a.asset_id));
    } catch {
      return null;
    }
  })();
  return alertWire(a, asset, live);
}
