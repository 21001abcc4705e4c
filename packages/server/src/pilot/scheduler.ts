import type { AppDeps } from '../platform/deps.js';
import { InProcessJobs } from '../platform/jobs/in-process.js';
import type { JobRunner } from '../platform/jobs/runner.js';
import { type PilotRun, pilotConfigOf, runPilotCycle } from './bot.js';

/** The repeatable job of a pilot run (one at a time across all instances on a shared runner). */
export const PILOT_JOB = 'pilot';

/** The background publishing/outcome job and the bot, one run at a time. */
export interface PilotScheduler {
  /** Runs once now (waiting for a run in progress first); resolves with what it did. */
  runNow(): Promise<PilotRun | null>;
  stop(): Promise<void>;
}

/**
 * Starts the pilot's runs every `config.pilot.intervalMs` (publish the universe's plans at each new
 * candle, advance every open plan's outcome, trade), the first at once, on `jobs` when given (its
 * owner closes it; one run at a time across all instances), else on timers in this process. Runs
 * never overlap in a process; a failed run is reported to `onError` and the next one tries again.
 * A run is safe to repeat: a plan is decided once (`pilot.decide` refuses a plan decided before).
 * `stop` waits for the run in progress.
 */
export function startPilot(
  deps: AppDeps,
  onError: (err: unknown) => void = () => {},
  jobs?: JobRunner,
): PilotScheduler {
  const config = pilotConfigOf(deps);
  let running: Promise<PilotRun | null> | null = null;
  let stopped = false;
  const runOnce = (): Promise<PilotRun | null> => {
    if (running) return running;
    running = runPilotCycle(deps)
      .catch((err: unknown) => {
        onError(err);
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const own = jobs === undefined ? new InProcessJobs({ onError: (_name, err) => onError(err) }) : null;
  const runner = jobs ?? own;
  void runner
    ?.every(
      PILOT_JOB,
      config.intervalMs,
      async () => {
        if (!stopped) await runOnce();
      },
      { immediately: true },
    )
    .catch(onError);
  return {
    async runNow() {
      if (running) await running;
      return runOnce();
    },
    async stop() {
      stopped = true;
      await own?.close();
      if (running) await running;
    },
  };
}
