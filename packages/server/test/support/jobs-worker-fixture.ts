/**
 * Test-only entry (bundled and run as a child process by the platform/jobs tests): a process that
 * only works jobs, on the Redis at JOBS_REDIS_URL under JOBS_PREFIX. JOBS_LOCK_MS and
 * JOBS_STALLED_MS shorten the dead-worker recovery. It prints `READY` once connected.
 *
 * JOBS_MODE=sleep (default): works the queue JOBS_NAME one job at a time, each sleeping its `ms`,
 * printing `STARTED <id>` and `DONE <id>` around it.
 *
 * JOBS_MODE=sync: a `marketlens worker` (startWorker) over the database JOBS_DB (a SQLite file or
 * a PostgreSQL URL, in the schema JOBS_DB_SCHEMA when set), with the credentials key JOBS_KEY (hex), on the fixed clock JOBS_NOW; its simulated accounts serve fills
 * in pages of JOBS_PAGE_SIZE (0: no fills at all), each after JOBS_PAGE_DELAY_MS. It prints `SYNC <connection>` when a
 * sync starts and `PAGE <connection>` per fills page read.
 */
import { type AccountData, createSimulatedAccount, createSimulatedVenue } from '@marketlens/exchanges';
import { BullMqJobs } from '../../src/platform/jobs/bullmq.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`${name} is not set`);
  return value;
};
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const queue = {
  prefix: env('JOBS_PREFIX'),
  name: `fixture-${process.pid}`,
  lockDurationMs: Number(env('JOBS_LOCK_MS')),
  stalledIntervalMs: Number(env('JOBS_STALLED_MS')),
};

async function sleepWorker(): Promise<() => Promise<void>> {
  const jobs = new BullMqJobs({ ...queue, url: env('JOBS_REDIS_URL'), schedule: false });
  await jobs.work<{ ms: number }>(env('JOBS_NAME'), async (data, job) => {
    say(`STARTED ${job.id}`);
    await new Promise((resolve) => setTimeout(resolve, data.ms));
    say(`DONE ${job.id}`);
  });
  await jobs.whenReady();
  return () => jobs.close();
}

async function syncWorker(): Promise<() => Promise<void>> {
  const { startWorker } = await import('../../src/background.js');
  const { createStorage } = await import('../../src/storage/create-storage.js');
  const { DEFAULT_CONFIG } = await import('../../src/platform/deps.js');
  const { DEFAULT_PILOT_CONFIG } = await import('../../src/pilot/config.js');
  const now = Number(env('JOBS_NOW'));
  const clock = (): number => now;
  const market = createSimulatedVenue({ now: clock });
  const delay = Number(env('JOBS_PAGE_DELAY_MS'));
  const pageSize = Number(env('JOBS_PAGE_SIZE'));
  const account = (connection: string): AccountData => {
    const inner = createSimulatedAccount(market, { connection });
    return {
      connection: inner.connection,
      venue: inner.venue,
      positions: () => {
        say(`SYNC ${connection}`);
        return inner.positions();
      },
      balances: () => inner.balances(),
      protectiveOrders: () => inner.protectiveOrders(),
      fundingSinceOpen: (pair, opened) => inner.fundingSinceOpen(pair, opened),
      fills: async (request) => {
        await new Promise((resolve) => setTimeout(resolve, delay));
        const page =
          pageSize === 0 ? { fills: [], next_cursor: null } : await inner.fills({ ...request, limit: pageSize });
        say(`PAGE ${connection}`);
        return page;
      },
    };
  };
  const schema = process.env.JOBS_DB_SCHEMA;
  const storage = await createStorage({
    url: env('JOBS_DB'),
    ...(schema !== undefined && schema !== '' ? { postgres: { schema, max: 5 } } : {}),
  });
  const worker = await startWorker({
    config: {
      ...DEFAULT_CONFIG,
      sync: { ...DEFAULT_CONFIG.sync, pollMs: 100, concurrency: 8 },
      pilot: { ...DEFAULT_PILOT_CONFIG, enabled: false },
    },
    storage,
    market,
    redisUrl: env('JOBS_REDIS_URL'),
    credentialsKey: Buffer.from(env('JOBS_KEY'), 'hex'),
    extra: { now: clock, accountFor: (c) => account(c.id) },
    queue,
  });
  return async () => {
    await worker.stop();
    await storage.close();
  };
}

const stop = await (process.env.JOBS_MODE === 'sync' ? syncWorker() : sleepWorker());
say('READY');
process.on('SIGTERM', () => {
  void stop().then(() => process.exit(0));
});
