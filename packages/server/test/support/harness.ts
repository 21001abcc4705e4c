import { createSimulatedVenue, type SimulatedVenue } from '@marketlens/exchanges';
import { type App, createApp } from '../../src/app.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../src/platform/deps.js';
import { createSqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { Storage } from '../../src/storage/types.js';

export interface Harness {
  app: App;
  storage: ReturnType<typeof createSqliteStorage>;
  clock: { now: number };
  /** The simulated venue the app reads, on the same clock. */
  market: SimulatedVenue;
  /** A request from `ip` (the socket peer). */
  request(path: string, init?: RequestInit, ip?: string): Promise<Response>;
  json(path: string, body: unknown, init?: RequestInit): Promise<Response>;
  signup(email?: string): Promise<{ token: string; userId: string }>;
  apiKey(token: string, body?: Record<string, unknown>): Promise<string>;
}

let counter = 0;

/** An app over in-memory SQLite with a settable clock; errors are not logged. `deps` adds or overrides app deps. */
export function harness(
  config: Partial<ServerConfig> = {},
  wrap?: (s: Storage) => Storage,
  deps: Partial<Omit<AppDeps, 'storage' | 'config' | 'now' | 'market'>> = {},
): Harness {
  const storage = createSqliteStorage(':memory:');
  const clock = { now: Date.UTC(2026, 0, 15, 12, 0, 0) };
  const now = () => clock.now;
  const market = createSimulatedVenue({ now });
  const app = createApp(
    { storage: wrap ? wrap(storage) : storage, config: { ...DEFAULT_CONFIG, ...config }, now, market, ...deps },
    { logError: () => {} },
  );
  const request = (path: string, init?: RequestInit, ip = '203.0.113.7') =>
    Promise.resolve(app.request(path, init, { incoming: { socket: { remoteAddress: ip } } }));
  const json = (path: string, body: unknown, init: RequestInit = {}) =>
    request(path, {
      method: 'POST',
      ...init,
      headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      body: JSON.stringify(body),
    });
  return {
    app,
    storage,
    clock,
    market,
    request,
    json,
    async signup(email = `user${++counter}@example.com`) {
      const res = await json('/v1/auth/signup', { email, password: 'password-123' });
      const b = (await res.json()) as { data: { session_token: string; user: { id: string } } };
      return { token: b.data.session_token, userId: b.data.user.id };
    },
    async apiKey(token, body = {}) {
      const res = await json('/v1/users/api_keys', body, { headers: { 'x-session-token': token } });
      const b = (await res.json()) as { data: { key: string } };
      return b.data.key;
    },
  };
}
