/**
 * Test support (not exported from the package): an app over in-memory SQLite with a settable clock,
 * the simulated venue on that clock, and a {@link SyncScheduler} wired the way server.ts wires it,
 * with `accountFor` / `verifyCredentials` injectable (a ccxt client against a local venue server).
 */
import { randomBytes } from 'node:crypto';
import { createSimulatedVenue, type SimulatedVenue } from '@marketlens/exchanges';
import type { SyncConfig } from '../../src/accounts/config.js';
import { openConnection } from '../../src/accounts/connections.js';
import { SyncScheduler } from '../../src/accounts/sync/scheduler.js';
import { type App, createApp } from '../../src/app.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../src/platform/deps.js';
import { createSqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

export interface SyncTestApp {
  app: App;
  deps: AppDeps;
  storage: ReturnType<typeof createSqliteStorage>;
  clock: { now: number };
  market: SimulatedVenue;
  scheduler: SyncScheduler;
  request(path: string, init?: RequestInit): Promise<Response>;
  post(path: string, body: unknown, token: string): Promise<Response>;
  signup(): Promise<{ token: string; userId: string }>;
}

let counter = 0;

/** Builds the app; `requestSync` is left unset unless `autoSync` so tests decide when syncs run. */
export function syncTestApp(
  options: {
    now?: number;
    filename?: string;
    sync?: Partial<SyncConfig>;
    deps?: Partial<Pick<AppDeps, 'accountFor' | 'verifyCredentials'>>;
    autoSync?: boolean;
    maxFillPages?: number;
    fillPageSize?: number;
    random?: () => number;
  } = {},
): SyncTestApp {
  const storage = createSqliteStorage(options.filename ?? ':memory:');
  const clock = { now: options.now ?? Date.UTC(2026, 0, 15, 12, 0, 0) };
  const now = () => clock.now;
  const market = createSimulatedVenue({ now });
  const config = { ...DEFAULT_CONFIG, sync: { ...DEFAULT_CONFIG.sync, ...options.sync } };
  const deps: AppDeps = { storage, config, now, market, credentialsKey: randomBytes(32), ...options.deps };
  const scheduler = new SyncScheduler({
    storage,
    now,
    config: config.sync,
    open: (c) => openConnection(deps, c),
    maxFillPages: options.maxFillPages,
    fillPageSize: options.fillPageSize,
    random: options.random,
  });
  if (options.autoSync === true) deps.requestSync = (id) => scheduler.requestSync(id);
  const app = createApp(deps, { logError: () => {} });
  const request = (path: string, init?: RequestInit) =>
    Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: '203.0.113.9' } } }));
  const post = (path: string, body: unknown, token: string) =>
    request(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify(body),
    });
  return {
    app,
    deps,
    storage,
    clock,
    market,
    scheduler,
    request,
    post,
    async signup() {
      const res = await request('/v1/auth/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `sync${++counter}@example.com`, password: 'password-123' }),
      });
      const b = (await res.json()) as { data: { session_token: string; user: { id: string } } };
      return { token: b.data.session_token, userId: b.data.user.id };
    },
  };
}
