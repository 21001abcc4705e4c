import type { AppDeps } from '../platform/deps.js';
import { type PilotRun, pilotConfigOf, runPilotCycle } from './bot.js';

/** The background publishing/outcome job and the bot, one run at a time. */
export interface PilotScheduler {
  /** Runs once now (waiting for a run in progress first); resolves with what it did. */
  runNow(): Promise<PilotRun | null>;
  stop(): Promise<void>;
}

/**
 * Starts the pilot's runs every `config.pilot.intervalMs` (publish the universe's plans at each new
 * candle, advance every open plan's outcome, trade). Runs never overlap; a failed run is reported
 * to `onError` and the next one tries again. `stop` waits for the run in progress.
 */
export function startPilot(deps: AppDeps, onError: (err: unknown) => void = () => {}): PilotScheduler {
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
  const timer = setInterval(() => {
    if (!stopped && !running) void runOnce();
  }, config.intervalMs);
  timer.unref();
  // The first run at once, so the pilot is active from start-up.
  void runOnce();
  return {
    async runNow() {
      if (running) await running;
      return runOnce();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
