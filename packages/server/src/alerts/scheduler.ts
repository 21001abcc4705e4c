import { candleOpenTime, MAX_CANDLES, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { analyzeOptionsOf } from '../analysis/plan-costs.js';
import { iso, marketOf, universeOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { InProcessJobs } from '../platform/jobs/in-process.js';
import type { JobRunner } from '../platform/jobs/runner.js';
import type { AlertRecord } from '../storage/alerts-types.js';
import { type AlertHit, evaluateAlert, evalWindowOf } from './evaluate.js';
import { formatPct, formatPrice, noticeOf } from './push/notices.js';
import { checkRegimeTransitions } from './push/regime.js';
import { type DeliveryReport, deliverDue } from './push/sender.js';
import { deliverWebhooksDue } from './push/webhook-sender.js';

/** Closed candles an alert catches up on after downtime, at most; older closes are not replayed. */
export const MAX_CATCH_UP = 288;
/** How often the scheduler looks for closed candles (real time). */
export const SCHEDULER_INTERVAL_MS = 15_000;
/** The repeatable job of a pass (one at a time across all instances on a shared runner). */
export const ALERTS_JOB = 'alerts';

export interface TickReport {
  evaluated: number;
  triggered: number;
  expired: number;
  regime: number;
  delivery: DeliveryReport;
  /** The webhook outbox, delivered after the pushes. */
  webhooks: DeliveryReport;
}

/** The push of a fired alert; percent-change pushes are captioned with their column (section 6). */
export function alertPayload(alert: AlertRecord, assetName: string, hit: AlertHit, now: number) {
  const key = `alert:${alert.id}:${hit.candle_open}:${alert.armed_at}`;
  const arrow = alert.direction === 'above' ? 'above' : 'below';
  let title: string;
  let body: string;
  switch (alert.kind) {
    case 'percent_change':
      title = `${assetName} ${formatPct(hit.value)} (${alert.evaluates_as})`;
      body = `${assetName} moved ${formatPct(hit.value)} over ${alert.evaluates_as}; your alert was ${formatPct(alert.target)}`;
      break;
    case 'rsi':
      title = `${assetName} RSI ${hit.value.toFixed(1)} (${alert.evaluates_as})`;
      body = `RSI(14) on ${alert.evaluates_as} closed ${arrow} ${alert.target}`;
      break;
    case 'smart_zone':
      title = `${assetName} near its smart zone (${alert.evaluates_as})`;
      body = `${assetName} closed ${hit.value.toFixed(2)}% from the published entry zone`;
      break;
    case 'zone':
      title = `${assetName} entered its ${alert.evaluates_as} zone`;
      body = `${assetName} traded into ${formatPrice(alert.zone_low ?? alert.target)}-${formatPrice(alert.zone_high ?? alert.target)}`;
      break;
    case 'breakout':
      title = `${assetName} broke ${arrow} ${formatPrice(alert.target)}`;
      body = `A ${alert.evaluates_as} candle closed at ${formatPrice(hit.value)}`;
      break;
    default:
      title = `${assetName} ${arrow} ${formatPrice(alert.target)}`;
      body = `${assetName} reached ${formatPrice(alert.target)} (last close ${formatPrice(hit.close)})`;
  }
  return noticeOf({
    key,
    category: 'alert',
    title,
    body,
    time: iso(now),
    data: {
      notification_id: alert.id,
      asset_id: alert.asset_id,
      kind: alert.kind,
      target: alert.target,
      timeframe: alert.timeframe,
      evaluates_as: alert.evaluates_as,
      caption: alert.kind === 'percent_change' ? alert.evaluates_as : null,
      value: hit.value,
      candle_open: iso(hit.candle_open),
    },
  });
}

/**
 * Evaluates every active alert at candle close: for each (asset, candle timeframe) the closed
 * candles since the oldest unevaluated one are read once; an alert that fires becomes triggered
 * and its push is written to the outbox (one row per active device and webhook) in one transaction, keyed by (alert, candle, arming), so
 * a crash or restart before or after that write never fires it twice. Returns alerts triggered
 * and evaluated.
 */
export async function evaluateAlerts(deps: AppDeps): Promise<{ evaluated: number; triggered: number }> {
  const now = deps.now();
  const market = marketOf(deps);
  const universe = universeOf(market);
  const groups = new Map<string, { assetId: string; timeframe: Timeframe; alerts: AlertRecord[] }>();
  for (const alert of await deps.storage.alerts.listActive()) {
    const { timeframe } = evalWindowOf(alert);
    const lastClosed = candleOpenTime(timeframe, now) - TIMEFRAME_MS[timeframe];
    if (alert.last_evaluated_open !== null && alert.last_evaluated_open >= lastClosed) continue;
    if (candleOpenTime(timeframe, alert.armed_at) > lastClosed) continue; // nothing has closed since arming
    const key = `${alert.asset_id}|${timeframe}`;
    let g = groups.get(key);
    if (!g) {
      g = { assetId: alert.asset_id, timeframe, alerts: [] };
      groups.set(key, g);
    }
    g.alerts.push(alert);
  }
  let evaluated = 0;
  let triggered = 0;
  for (const g of groups.values()) {
    const step = TIMEFRAME_MS[g.timeframe];
    const end = candleOpenTime(g.timeframe, now);
    let need = 1;
    for (const a of g.alerts) {
      const from = Math.max(a.last_evaluated_open ?? -Infinity, candleOpenTime(g.timeframe, a.armed_at) - step);
      const fresh = Math.min(MAX_CATCH_UP, Math.ceil((end - from) / step));
      need = Math.max(need, fresh + evalWindowOf(a).warmup);
    }
    let candles: Awaited<ReturnType<typeof market.candles>>['candles'];
    try {
      candles = (
        await market.candles({ asset_id: g.assetId, timeframe: g.timeframe, limit: Math.min(need, MAX_CANDLES), end })
      ).candles;
    } catch {
      // The venue cannot serve this asset now: its alerts wait for the next tick.
      continue;
    }
    const n = candles.time.length;
    if (n === 0) continue;
    const lastOpen = candles.time[n - 1];
    const asset = universe.get(g.assetId);
    const name = asset?.name ?? g.assetId;
    const options = analyzeOptionsOf(deps.config.planCosts, asset, market.venue);
    for (const alert of g.alerts) {
      evaluated++;
      const hit = evaluateAlert(alert, candles, options);
      if (hit === null) {
        await deps.storage.alerts.markEvaluated(alert.id, alert.armed_at, lastOpen);
        continue;
      }
      const notice = alertPayload(alert, name, hit, now);
      // Webhooks: the database copies this notice to each active webhook of the owner in the
      // transaction that fires the alert (the `alert_webhook_fan_out` trigger); devices get theirs
      // from `trigger` itself.
      await deps.storage.alertWebhooks.stageNotice(
        alert.user_id,
        { alert_id: alert.id, armed_at: alert.armed_at, trigger_candle: hit.candle_open },
        notice,
        now,
      );
      const fired = await deps.storage.alerts.trigger(
        alert.id,
        alert.armed_at,
        { triggered_at: now, trigger_value: hit.value, trigger_candle: hit.candle_open },
        notice,
      );
      if (fired) triggered++;
    }
  }
  return { evaluated, triggered };
}

/**
 * The alert scheduler: on every tick it expires lapsed alerts, evaluates alerts whose candles
 * closed, checks d1 regime transitions and delivers the outbox. Ticks never overlap; `tick` can be
 * called directly (tests advance an injected clock and tick). One per process over a storage; on a
 * shared job runner one pass runs at a time across all instances. A pass is safe to run again, or
 * after a crash half-way: an alert fires only from active to triggered (see {@link evaluateAlerts}).
 */
export class AlertScheduler {
  private jobs: JobRunner | null = null;
  /** The runner {@link start} made itself (no runner given), closed by {@link stop}. */
  private ownJobs: InProcessJobs | null = null;
  private running: Promise<TickReport> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: { intervalMs?: number; onError?: (err: unknown) => void } = {},
  ) {}

  /** Runs one pass (or joins the one under way). */
  tick(): Promise<TickReport> {
    if (this.running) return this.running;
    const run = this.pass().finally(() => {
      this.running = null;
    });
    this.running = run;
    return run;
  }

  private async pass(): Promise<TickReport> {
    const expired = await this.deps.storage.alerts.expireDue(this.deps.now());
    const { evaluated, triggered } = await evaluateAlerts(this.deps);
    const regime = await checkRegimeTransitions(this.deps);
    const delivery = await deliverDue(this.deps);
    const webhooks = await deliverWebhooksDue(this.deps);
    return { evaluated, triggered, expired, regime, delivery, webhooks };
  }

  /** Ticks every `intervalMs` (the first after one interval) on `jobs` when given (its owner closes it), else on timers in this process. */
  async start(jobs?: JobRunner): Promise<void> {
    if (this.jobs || this.stopped) return;
    const onError = this.options.onError ?? ((err) => console.error('[marketlens] alert scheduler:', err));
    if (jobs === undefined) this.ownJobs = new InProcessJobs({ onError: (_name, err) => onError(err) });
    const runner = jobs ?? this.ownJobs;
    if (runner === null) return;
    this.jobs = runner;
    await runner.every(ALERTS_JOB, this.options.intervalMs ?? SCHEDULER_INTERVAL_MS, async () => {
      if (this.stopped) return;
      try {
        await this.tick();
      } catch (err) {
        onError(err);
      }
    });
  }

  /** Stops ticking and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.ownJobs?.close();
    await this.running?.catch(() => undefined);
  }
}
