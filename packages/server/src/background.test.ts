import { SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import { describe, expect, it, vi } from 'vitest';
import { syncTestApp } from '../test/support/sync-app.js';
import { startBackgroundJobs } from './background.js';
import { DEFAULT_PILOT_CONFIG } from './pilot/config.js';
import { InProcessJobs } from './platform/jobs/in-process.js';
import type { JobRunner } from './platform/jobs/runner.js';

describe('startBackgroundJobs', () => {
  it('declares every job on the runner, syncs a new connection at once, and closes the runner on stop', async () => {
    const t = syncTestApp({ sync: { pollMs: 60_000 } });
    t.deps.config = {
      ...t.deps.config,
      pilot: { ...DEFAULT_PILOT_CONFIG, enabled: true, intervalMs: 60_000 },
      backtestIntervalMs: 3_600_000,
    };
    const inner = new InProcessJobs();
    const declared: string[] = [];
    let closed = false;
    const jobs: JobRunner = {
      every: (name, ms, handler, options) => {
        declared.push(`every ${name}`);
        return inner.every(name, ms, handler, options);
      },
      work: (name, handler, options) => {
        declared.push(`work ${name}`);
        return inner.work(name, handler, options);
      },
      enqueue: (name, data, options) => inner.enqueue(name, data, options),
      close: async () => {
        closed = true;
        await inner.close();
      },
    };
    const background = await startBackgroundJobs(t.deps, jobs, { warmMs: 60_000, log: () => {} });
    // The simulated venue needs no warming: no refresher.
    expect(declared.sort()).toEqual([
      'every alerts',
      'every backtest-record',
      'every pilot',
      'every sync-due',
      'work alerts-asset',
      'work sync-connection',
    ]);
    expect(t.deps.requestSync).toBeTypeOf('function');
    expect(t.deps.pilot?.onPilotTrade).toBeTypeOf('function');

    const { token } = await t.signup();
    const res = await t.post('/v1/connections/user', { exchange_id: SIMULATED_VENUE_ID }, token);
    const id = ((await res.json()) as { data: { id: string } }).data.id;
    await vi.waitFor(async () => expect((await t.storage.connections.byId(id))?.last_success_at).not.toBeNull(), {
      timeout: 5_000,
    });
    // The pilot's first run happens at start.
    await vi.waitFor(async () => expect(await t.storage.pilot.state()).not.toBeNull(), { timeout: 10_000 });
    // The backtest's first run, started at once, is abandoned at its next yield: stop does not wait a whole walk.
    await background.stop();
    expect(closed).toBe(true);
  });
});
