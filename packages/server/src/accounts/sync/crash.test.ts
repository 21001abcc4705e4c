/**
 * Crash safety: a real server process is killed with SIGKILL in the middle of a fills sync,
 * restarted on the same data directory, and finishes the sync with no duplicate and no lost row.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulatedAccount, createSimulatedVenue, SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILLS_LOOKBACK_MS } from './job.js';

const ROOT = fileURLToPath(new URL('../../../../..', import.meta.url));
const BUNDLE_DIR = join(ROOT, 'packages/server/node_modules/.cache', `marketlens-crash-${process.pid}`);
const BUNDLE = join(BUNDLE_DIR, 'child.mjs');
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const children = new Set<ChildProcess>();
let dataDir: string;

beforeAll(() => {
  // The child runs the server from source, bundled (no TypeScript runner is installed); ccxt is
  // never loaded (simulated venue) and better-sqlite3 is native, so both stay external.
  mkdirSync(BUNDLE_DIR, { recursive: true });
  execFileSync(
    join(ROOT, 'packages/server/node_modules/.bin/esbuild'),
    [
      'packages/server/test/support/sync-crash-child.ts',
      '--bundle',
      '--platform=node',
      '--format=esm',
      '--target=node20',
      '--log-level=error',
      `--outfile=${BUNDLE}`,
      '--external:better-sqlite3',
      '--external:ccxt',
      '--alias:@marketlens/exchanges=./packages/exchanges/src/index.ts',
      '--alias:@marketlens/core=./packages/core/src/index.ts',
      '--alias:@marketlens/mcp=./packages/mcp/src/index.ts',
      "--banner:js=import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
  dataDir = mkdtempSync(join(tmpdir(), 'ml-crash-'));
}, 60_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server process; resolves with it and its URL once it listens. */
function startChild(delayMs: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [BUNDLE], {
    env: {
      ...process.env,
      MARKETLENS_DATA_DIR: dataDir,
      CRASH_NOW: String(NOW),
      CRASH_PAGE_DELAY_MS: String(delayMs),
      CRASH_PAGE_SIZE: '5',
      MARKETLENS_SYNC_POLL_MS: '50',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${err}`)));
  });
}

/** Reads the database file the way an operator would, while the server runs. */
function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(join(dataDir, 'marketlens.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

async function until<T>(read: () => T | null, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function killed(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once('exit', () => resolve());
      child.kill(signal);
    }
  });
}

describe('sync survives SIGKILL', () => {
  it('a killed sync resumes after restart: no duplicate, no lost fill, consistent positions and balances', async () => {
    const first = await startChild(60);
    const signup = await fetch(`${first.url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'crash@example.com', password: 'password-123' }),
    });
    const token = ((await signup.json()) as { data: { session_token: string } }).data.session_token;
    const res = await fetch(`${first.url}/v1/connections/user`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify({ exchange_id: SIMULATED_VENUE_ID }),
    });
    expect(res.status).toBe(200);
    const id = ((await res.json()) as { data: { id: string } }).data.id;

    // Kill it hard once several pages are stored and the read is still under way.
    await until(() => {
      const [{ n }] = query<{ n: number }>('SELECT COUNT(*) AS n FROM fills WHERE user_connection_id = ?', id);
      return n >= 30 ? n : null;
    }, 30_000);
    await killed(first.child, 'SIGKILL');
    const [mid] = query<{ fills_cursor: string | null; fills_synced_until: number | null; n: number }>(
      `SELECT fills_cursor, fills_synced_until,
         (SELECT COUNT(*) FROM fills WHERE user_connection_id = c.id) AS n
       FROM user_connections c WHERE id = ?`,
      id,
    );
    expect(mid.fills_cursor).not.toBeNull();
    expect(mid.fills_synced_until).toBeNull();

    // Restart on the same data directory: the due connection resumes from its stored cursor.
    const second = await startChild(5);
    await until(() => {
      const [c] = query<{ fills_cursor: string | null; last_success_at: number | null }>(
        'SELECT fills_cursor, last_success_at FROM user_connections WHERE id = ?',
        id,
      );
      return c.fills_cursor === null && c.last_success_at !== null ? c : null;
    }, 30_000);
    const list = await fetch(`${second.url}/v1/connections/user`, { headers: { 'x-session-token': token } });
    const [view] = ((await list.json()) as { data: Array<{ sync: { status: string }; positions: unknown[] }> }).data;
    expect(view.sync.status).toBe('ok');
    expect(view.positions).toHaveLength(6);
    await killed(second.child, 'SIGTERM');

    const venue = createSimulatedVenue({ now: () => NOW });
    const account = createSimulatedAccount(venue, { connection: id });
    const expected: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await account.fills({ since: NOW - FILLS_LOOKBACK_MS, cursor, limit: 500 });
      expected.push(...page.fills.map((f) => f.external_id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);

    const stored = query<{ external_id: string }>(
      'SELECT external_id FROM fills WHERE user_connection_id = ? ORDER BY external_id',
      id,
    ).map((r) => r.external_id);
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored).toEqual([...expected].sort());
    expect(stored.length).toBeGreaterThan(mid.n);

    const positions = query<{ pair: string; side: string }>(
      'SELECT pair, side FROM positions WHERE user_connection_id = ? AND closed_at IS NULL',
      id,
    );
    expect(positions).toHaveLength((await account.positions()).length);
    const balances = query<{ symbol: string; account: string }>(
      'SELECT symbol, account FROM balances WHERE user_connection_id = ?',
      id,
    );
    expect(balances.map((b) => `${b.account}:${b.symbol}`).sort()).toEqual(
      (await account.balances()).map((b) => `${b.account}:${b.symbol}`).sort(),
    );
  }, 120_000);
});
