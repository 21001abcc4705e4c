import { SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { openConnection } from './accounts/connections.js';
import { SyncScheduler } from './accounts/sync/scheduler.js';
import { type PilotTradeNotice, notifyPilotTrade as pushPilotTrade } from './alerts/push/pilot.js';
import { AlertScheduler } from './alerts/scheduler.js';
import { scheduleBacktest } from './analysis/backtest/backtest.js';
import { startMarketWarmer } from './analysis/market-warm.js';
import { mailerOf } from './auth/verification/mailer.js';
import { publishUserEvent } from './live/live.js';
import { marketOf } from './market/market.js';
import { pilotSeries } from './pilot/bot.js';
import { DEFAULT_PILOT_CONFIG } from './pilot/config.js';
import { pilotEligibility } from './pilot/eligibility.js';
import { startPilot } from './pilot/scheduler.js';
import type { AppDeps } from './platform/deps.js';
import { type JobRunner, type JobRunObserver, observeJobs } from './platform/jobs/runner.js';
import { type RunningWorker, startJobWorker, type WorkerOptions } from './platform/jobs/worker.js';
import { pilotEligible } from './promotions/eligibility.js';

export interface BackgroundOptions {
  /** Refresh the favorites' and popular assets' analyses this often (real sources only; absent or 0: never). */
  warmMs?: number;
  /** One line per failure (default: stderr, prefixed `[marketlens]`). */
  log?: (message: string) => void;
  /** Told of every ended run of every job this process works (metrics, the log). */
  onJobRun?: JobRunObserver;
}

/** The background work of a process, started by {@link startBackgroundJobs}. */
export interface BackgroundJobs {
  /** The account sync (`requestSync` after a connection is created). */
  readonly sync: SyncScheduler;
  /** Stops taking jobs, ends the syncs under way early (at a page boundary), waits for the handlers, closes `jobs`. */
  stop(): Promise<void>;
}

/**
 * The server's background jobs, wired here by the composition root: each feature offers its jobs
 * (the account sync, the alert pass, the pilot, the backtest record, the analysis warmer) and this
 * file starts them on a runner and connects them where one feature's event is another's work (a
 * synced connection is a user event of `live/`, a pilot trade a push of `alerts/`). The platform's
 * runners (`platform/jobs/`) know no feature.
 */

/**
 * Writes the `pilot_trade` push of a trade the pilot just opened to the users who may spectate it
 * (alerts' `notifyPilotTrade`, wired here to the pilot's eligibility and the promotions' standing,
 * since neither feature imports the other). `isPilotEligible` absent: the host's
 * `deps.isPilotEligible`, else a grant or affiliate volume at the configured threshold. Returns the
 * outbox rows written; calling it again for the same trade writes none. The package's public
 * `notifyPilotTrade`.
 */
export function notifyPilotTrade(
  deps: AppDeps,
  trade: PilotTradeNotice,
  isPilotEligible: (userId: string) => Promise<boolean> = pilotEligibility(deps, pilotEligible),
): Promise<number> {
  return pushPilotTrade(deps, trade, isPilotEligible);
}

/**
 * Declares every background job of the server on `runner` and works them there: the account sync
 * (a `sync-due` poll fanning out one `sync-connection` job per due connection), the alert pass, the
 * pilot with its plan outcomes (when `config.pilot` is enabled), the backtest record (every
 * `config.backtestIntervalMs`, when set and above 0) and, on real sources, the market refresher. It sets `deps.requestSync` (a new connection is synced at once) and `deps.pilot` (a
 * new pilot trade raises the `pilot_trade` push). An API server and a `marketlens worker` process
 * both call it; what each does is the runner's roles (schedule, work).
 */
export async function startBackgroundJobs(
  deps: AppDeps,
  runner: JobRunner,
  options: BackgroundOptions = {},
): Promise<BackgroundJobs> {
  const jobs = options.onJobRun === undefined ? runner : observeJobs(runner, options.onJobRun);
  const log = options.log ?? ((message: string) => console.error(`[marketlens] ${message}`));
  const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));
  const sync = new SyncScheduler({
    storage: deps.storage,
    now: deps.now,
    config: deps.config.sync,
    open: (connection) => openConnection(deps, connection),
    log,
    onSynced: (connection, result) =>
      void publishUserEvent(deps, connection.user_id, 'sync', {
        connection_id: connection.id,
        ok: result.ok,
        error: result.error,
        positions: result.positions,
        balances: result.balances,
        new_fills: result.new_fills,
        finished_at: new Date(deps.now()).toISOString(),
      }),
  });
  deps.requestSync = (id) => sync.requestSync(id);
  // A fired alert is a user event of `live/` (also set by `createApp`; a worker process has no app).
  deps.onAlertTriggered ??= (userId, event) => publishUserEvent(deps, userId, 'alert', event);
  const alerts = new AlertScheduler(deps, { onError: (err) => log(`alert scheduler: ${describe(err)}`) });
  deps.pilot = { onPilotTrade: async (trade) => void (await notifyPilotTrade(deps, trade)) };
  const pilot = (deps.config.pilot ?? DEFAULT_PILOT_CONFIG).enabled
    ? startPilot(deps, (err) => log(`pilot run failed: ${describe(err)}`), jobs)
    : null;
  const warmMs = options.warmMs ?? 0;
  const warmer =
    warmMs > 0 && marketOf(deps).venue !== SIMULATED_VENUE_ID ? startMarketWarmer(deps, warmMs, undefined, jobs) : null;
  const backtestMs = deps.config.backtestIntervalMs ?? 0;
  const [, , backtest] = await Promise.all([
    sync.start(jobs),
    alerts.start(jobs),
    backtestMs > 0 ? scheduleBacktest(deps, jobs, backtestMs, pilotSeries) : null,
  ]);
  return {
    sync,
    async stop() {
      // The schedulers stop first (synchronously: a sync under way ends at its next page), then the
      // runner stops taking jobs and waits for the handlers under way.
      backtest?.stop();
      const stopping = Promise.all([sync.stop(), alerts.stop(), pilot?.stop(), warmer?.stop()]);
      await jobs.close();
      await stopping;
    },
  };
}

/**
 * `marketlens worker` ({@link startJobWorker}) working this server's jobs: deps built from the
 * options when the caller has none (the mail of the configuration included).
 */
export function startWorker(options: Omit<WorkerOptions, 'startJobs' | 'defaults'>): Promise<RunningWorker> {
  return startJobWorker({
    ...options,
    startJobs: startBackgroundJobs,
    defaults: (log) => ({ mailer: mailerOf(options.config.mail, log) }),
  });
}
