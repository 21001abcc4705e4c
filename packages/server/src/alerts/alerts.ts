import { randomUUID } from 'node:crypto';
import { alertWire, type Notification, type NotificationKind, type NotificationPayload } from '@marketlens/contract';
import { type Analysis, analyze, type Candles } from '@marketlens/core';
import { type Asset, candleOpenTime, type MarketData, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { analyzeOptionsOf } from '../analysis/plan-costs.js';
import { isAtLeast } from '../auth/tiers.js';
import { requireVerifiedEmail } from '../auth/verification/verification.js';
import { assetRef, requireAsset } from '../market/assets.js';
import { marketOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { venueCall } from '../platform/errors/venue-error.js';
import type { AlertDirection, AlertRecord } from '../storage/alerts-types.js';
import type { Tier } from '../storage/types.js';
import { ALERT_DEPTH, analysisWindowOf } from './kinds/kind.js';
import { ALERT_KIND_REGISTRY, alertKindOf } from './kinds/registry.js';
import { alertLimitOf, MAX_DISABLED_ALERTS } from './limits.js';
import { nextStatus, ownerEvent } from './status.js';

/** An active alert that has not fired within this long after (re)arming expires. */
export const ALERT_TTL_MS = 90 * 86_400_000;
/** Request timeframes shorter than an hour: Pro only. */
export const SUB_HOUR_TIMEFRAMES: readonly string[] = ['m5', 'm15', 'm30'];

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

async function closedCandles(market: MarketData, assetId: string, timeframe: Timeframe, now: number) {
  return (
    await venueCall(() =>
      market.candles({ asset_id: assetId, timeframe, limit: ALERT_DEPTH, end: candleOpenTime(timeframe, now) }),
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
  const spec = Object.hasOwn(ALERT_KIND_REGISTRY, kind) ? alertKindOf(kind) : undefined;
  if (!spec) throw new AppError('InvalidNotification', `Unknown alert kind '${kind}'`);
  const timeframes = spec.payload.timeframes;
  const timeframe = payload.timeframe ?? null;
  let evaluatesAs: string | null = null;
  if (timeframes.length === 0) {
    if (timeframe !== null) throw new AppError('InvalidNotification', `A ${kind} alert reads no timeframe`);
  } else {
    const entry = timeframes.find((t) => t.value === timeframe);
    if (!entry) {
      throw new AppError(
        'InvalidNotification',
        `A ${kind} alert needs a timeframe among ${timeframes.map((t) => t.value).join(', ')}`,
      );
    }
    evaluatesAs = entry.evaluates_as;
  }

  const market = marketOf(deps);
  const now = deps.now();
  const target = payload.target;
  const ticker = () => venueCall(() => market.ticker({ asset_id: asset.id }));
  const armed = await spec.arm({
    deps,
    asset,
    evaluates_as: evaluatesAs,
    target,
    now,
    ticker,
    closedCandles: () => closedCandles(market, asset.id, analysisWindowOf(evaluatesAs), now),
    analyze: (candles) => tryAnalyze(deps, candles, asset, analysisWindowOf(evaluatesAs)),
  });
  if (timeframe !== null && SUB_HOUR_TIMEFRAMES.includes(timeframe) && !isAtLeast(tier, 'pro')) {
    throw new AppError('AnalysisTimeframeRestricted', `Alerts on ${timeframe} (under an hour) require Pro`);
  }
  return {
    asset,
    kind,
    timeframe,
    evaluates_as: evaluatesAs,
    target,
    direction: armed.direction,
    zone_low: armed.zone?.low ?? null,
    zone_high: armed.zone?.high ?? null,
    reference: armed.reference,
  };
}

function tryAnalyze(deps: AppDeps, candles: Candles, asset: Asset, timeframe: Timeframe): Analysis | null {
  try {
    return analyze(
      candles,
      analyzeOptionsOf(deps.config.planCosts, asset, marketOf(deps).venue, deps.config.signalMinExpectedR, {
        time: candles.time,
        stepMs: TIMEFRAME_MS[timeframe],
      }),
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
  const ticker = await marketOf(deps).ticker({ asset_id: alert.asset_id });
  const value = await alertKindOf(alert.kind).live(deps, alert, ticker);
  return { price: ticker.last, value, as_of: ticker.time };
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
