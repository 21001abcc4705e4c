import { candleOpenTime, MAX_CANDLES, TIMEFRAME_MS, type Timeframe } from '@marketlens/exchanges';
import { analyzeOptionsOf } from '../analysis/plan-costs.js';
import { iso, marketOf, universeOf } from '../market/market.js';
import type { AppDeps } from '../platform/deps.js';
import { InProcessJobs } from '../platform/jobs/in-process.js';
import type { JobRunner } from '../platform/jobs/runner.js';
import type { AlertRecord } from '../storage/alerts-types.js';
import { type AlertHit, evaluateAlert, evalWindowOf } from './evaluate.js';
import { alertKindOf } from './kinds/registry.js';
import type { DeliveryReport } from './push/delivery.js';
import { noticeOf } from './push/notices.js';
import { checkRegimeTransitions } from './push/regime.js';
import { deliverDue } from './push/sender.js';
import { deliverWebhooksDue } from './push/webhook-sender.js';

/** Closed candles an alert catches up on after downtime, at most; older closes are not replayed. */
export const MAX_CATCH_UP = 288;
/** How often the scheduler looks for closed candles (real time). */
export const SCHEDULER_INTERVAL_MS = 15_000;
/** The repeatable job of a pass (one at a time across all instances on a shared runner). */
export const ALERTS_JOB = 'alerts';
/** The fan-out job of a pass: one asset's alerts, worked by any worker. */
export const ALERT_ASSET_JOB = 'alerts-asset';
/** Asset jobs one process works at once. */
const ASSET_JOB_CONCURRENCY = 4;

export interface TickReport {
  evaluated: number;
  triggered: number;
  expired: number;
  regime: number;
  delivery: DeliveryReport;
  /** The webhook outbox, delivered after the pushes. */
  webhooks: DeliveryReport;
}

/** The push of a fired alert, in its kind's words (a percent-change push is captioned with the window it is evaluated over). */
export function alertPayload(alert: AlertRecord, assetName: string, hit: AlertHit, now: number) {
  const key = `alert:${alert.id}:${hit.candle_open}:${alert.armed_at}`;
  const { title, body, caption } = alertKindOf(alert.kind).text(alert, assetName, hit);
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
      caption,
      value: hit.value,
      candle_open: iso(hit.candle_open),
    },
  });
}

/** Alerts of one asset whose candles of one timeframe closed since they were last evaluated. */
interface AlertGroup {
  assetId: string;
  timeframe: Timeframe;
  alerts: AlertRecord[];
}

/** Groups the alerts with a closed candle to evaluate at `now` by (asset, candle timeframe). */
function dueGroups(active: readonly AlertRecord[], now: number): Map<string, AlertGroup> {
  const groups = new Map<string, AlertGroup>();
  for (const alert of active) {
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
  return groups;
}

/** The assets that have alerts to evaluate at `now` (the fan-out of a pass, one job per asset). */
export async function assetsWithDueAlerts(deps: AppDeps): Promise<string[]> {
  const groups = dueGroups(await deps.storage.alerts.listActive(), deps.now());
  return [...new Set([...groups.values()].map((g) => g.assetId))];
}

/**
 * Evaluates every active alert (of `assetId` only, when given) at candle close: for each (asset,
 * candle timeframe) the closed candles since the oldest unevaluated one are read once; an alert
 * that fires becomes triggered and its push is written to the outbox (one row per active device
 * and webhook) in one transaction, keyed by (alert, candle, arming), so a crash or restart before
 * or after that write never fires it twice, and two workers evaluating one asset at once fire it
 * once. Returns alerts triggered and evaluated.
 */
export async function evaluateAlerts(
  deps: AppDeps,
  assetId?: string,
): Promise<{ evaluated: number; triggered: number }> {
  const now = deps.now();
  const market = marketOf(deps);
  const universe = universeOf(market);
  const groups = dueGroups(await deps.storage.alerts.listActive(assetId), now);
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
    const options = analyzeOptionsOf(deps.config.planCosts, asset, market.venue, deps.config.signalMinExpectedR);
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
      if (fired) {
        triggered++;
        // The owner's open streams hear of it at once (the push and webhooks are already staged),
        // through the function the composition root gave (live/'s user event); none given, nobody.
        const pushed = JSON.parse(notice.payload) as { title: string; body: string };
        await deps.onAlertTriggered?.(alert.user_id, {
          alert_id: alert.id,
          asset_id: alert.asset_id,
          kind: alert.kind,
          title: pushed.title,
          body: pushed.body,
          value: hit.value,
          candle_time: iso(hit.candle_open),
          triggered_at: iso(now),
        });
      }
    }
  }
  return { evaluated, triggered };
}

/**
 * The alert scheduler. On a job runner ({@link start}) each pass expires lapsed alerts, queues one
 * job per asset with alerts whose candles closed (any worker of the fleet takes it: it evaluates
 * that asset's alerts and starts the delivery of what fired), checks d1 regime transitions and
 * starts the delivery of the outbox. Evaluation never waits for delivery: a slow receiver delays
 * its own notices, not the next pass nor another account's alerts; one pass runs at a time across all instances of a shared runner, and an asset's job is
 * not queued again while it is queued or running. {@link tick} runs the same steps inline and
 * reports them (tests advance an injected clock and tick). Every step is safe to run again, or
 * after a crash half-way: an alert fires only from active to triggered (see
 * {@link evaluateAlerts}) and the outbox rows are claimed by one sender at a time.
 */
export class AlertScheduler {
  private jobs: JobRunner | null = null;
  /** The runner {@link start} made itself (no runner given), closed by {@link stop}. */
  private ownJobs: InProcessJobs | null = null;
  private running: Promise<Omit<TickReport, 'delivery' | 'webhooks'>> | null = null;
  /** Delivery runs this scheduler started and that are still under way ({@link stop} waits for them). */
  private readonly delivering = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly options: {
      intervalMs?: number;
      onError?: (err: unknown) => void;
      /** Told what each asset job of this process did (tests, metrics). */
      onAssetEvaluated?: (assetId: string, report: { evaluated: number; triggered: number }) => void;
    } = {},
  ) {}

  /**
   * Runs one pass inline, evaluating every asset here (or joins the one under way), then waits for
   * the delivery it started and reports both. The pass itself never waits for delivery: a second
   * tick while a slow receiver holds the first one's delivery evaluates at once.
   */
  async tick(): Promise<TickReport> {
    const run =
      this.running ??
      this.pass(null).finally(() => {
        this.running = null;
      });
    this.running = run;
    const report = await run;
    const [delivery, webhooks] = await this.deliver();
    return { ...report, delivery, webhooks };
  }

  /**
   * Starts the delivery of both outboxes without waiting for it: a run under way is joined by the
   * next one, which sends what was written since (see `oneRunPerApp`). A failure is reported to
   * `onError`, never to the evaluation that started it.
   */
  private deliver(): Promise<[DeliveryReport, DeliveryReport]> {
    const onError = this.options.onError ?? ((err) => console.error('[marketlens] alert delivery:', err));
    const empty: DeliveryReport = { delivered: 0, gone: 0, retried: 0, failed: 0 };
    const guarded = (p: Promise<DeliveryReport>) =>
      p.catch((err: unknown) => {
        onError(err);
        return empty;
      });
    const both = Promise.all([guarded(deliverDue(this.deps)), guarded(deliverWebhooksDue(this.deps))]);
    this.delivering.add(both);
    void both.finally(() => this.delivering.delete(both));
    return both;
  }

  /** A pass; with `jobs`, the assets' evaluations are queued there instead of run here (then 0 evaluated). */
  private async pass(jobs: JobRunner | null): Promise<Omit<TickReport, 'delivery' | 'webhooks'>> {
    const expired = await this.deps.storage.alerts.expireDue(this.deps.now());
    let evaluated = 0;
    let triggered = 0;
    if (jobs === null) ({ evaluated, triggered } = await evaluateAlerts(this.deps));
    else {
      for (const assetId of await assetsWithDueAlerts(this.deps)) {
        await jobs.enqueue(ALERT_ASSET_JOB, { asset_id: assetId }, { jobId: `asset-${encodeURIComponent(assetId)}` });
      }
    }
    const regime = await checkRegimeTransitions(this.deps);
    if (jobs !== null) void this.deliver();
    return { evaluated, triggered, expired, regime };
  }

  /** One asset's job: its alerts evaluated, and what fired handed to delivery (not waited for). */
  private async evaluateAsset(assetId: string): Promise<void> {
    if (this.stopped) return;
    const report = await evaluateAlerts(this.deps, assetId);
    if (report.triggered > 0) void this.deliver();
    this.options.onAssetEvaluated?.(assetId, report);
  }

  /**
   * Passes every `intervalMs` (the first after one interval) on `jobs` when given (its owner
   * closes it), else on an in-process runner of its own; the asset jobs are worked there too.
   */
  async start(jobs?: JobRunner): Promise<void> {
    if (this.jobs || this.stopped) return;
    const onError = this.options.onError ?? ((err) => console.error('[marketlens] alert scheduler:', err));
    if (jobs === undefined) this.ownJobs = new InProcessJobs({ onError: (_name, err) => onError(err) });
    const runner = jobs ?? this.ownJobs;
    if (runner === null) return;
    this.jobs = runner;
    await runner.work<{ asset_id: string }>(ALERT_ASSET_JOB, (data) => this.evaluateAsset(data.asset_id), {
      concurrency: ASSET_JOB_CONCURRENCY,
    });
    await runner.every(ALERTS_JOB, this.options.intervalMs ?? SCHEDULER_INTERVAL_MS, async () => {
      if (this.stopped || this.running) return;
      const run = this.pass(runner).finally(() => {
        this.running = null;
      });
      this.running = run;
      try {
        await run;
      } catch (err) {
        onError(err);
      }
    });
  }

  /** Stops passing and waits for the pass and the deliveries under way (each bounded by the transport's deadline). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.ownJobs?.close();
    await this.running?.catch(() => undefined);
    await Promise.all(this.delivering);
  }
}
