import { type ChildProcess, fork } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Crash safety (issue #13): the built server runs in a child process on a temp data dir while
 * the test writes favorites, API keys and alerts as fast as it can; the child is killed with SIGKILL
 * mid-stream, several times. After each kill the database must hold every write the client saw
 * acknowledged (nothing lost), at most one row per request (nothing duplicated), nothing that
 * was never requested, and pass SQLite's integrity check; the restarted server must serve it.
 * Sync and alert crash tests live with their features (services/sync, services/alerts).
 *
 * Needs the built dist (`pnpm build` runs first in CI); FAULT_CYCLES (default 3) kills more often.
 */

const here = dirname(fileURLToPath(import.meta.url));
const DIST = join(here, '../../dist/index.js');
const CHILD = join(here, 'fault-server.mjs');
const CYCLES = Number(process.env.FAULT_CYCLES ?? 3);

let dataDir: string;
let child: ChildProcess | undefined;

function start(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = fork(CHILD, [], { env: { ...process.env, FAULT_DATA_DIR: dataDir }, stdio: 'ignore' });
  child = proc;
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve({ url: (m as { url: string }).url, proc }));
    proc.once('exit', (code) => reject(new Error(`server exited with ${code} before listening`)));
  });
}

function kill(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

/** What the client saw acknowledged, across all cycles. */
const acked = {
  favoritesAdded: new Set<string>(),
  favoritesRemoved: new Set<string>(),
  keysCreated: new Map<string, { id: string; key: string }>(),
  keysRevoked: new Set<string>(),
  alertsCreated: new Set<string>(),
  alertsDeleted: new Set<string>(),
};
/** Every key name ever requested (acknowledged or not). */
const requestedKeyNames = new Set<string>();
let token = '';
let assets: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'ml-faults-'));
});

afterAll(async () => {
  if (child) await kill(child);
  rmSync(dataDir, { recursive: true, force: true });
});

async function hammer(url: string, cycle: number, proc: ChildProcess): Promise<number> {
  const headers = { 'content-type': 'application/json', 'x-session-token': token };
  let stop = false;
  let sent = 0;
  const toAdd = assets.filter((a) => !acked.favoritesAdded.has(a));
  const favoriteWorker = async (w: number) => {
    for (let i = w; !stop && i < toAdd.length; i += 4) {
      const asset = toAdd[i];
      sent++;
      try {
        const res = await fetch(`${url}/v2/assets/favorites`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ asset_id: asset }),
        });
        if (res.status === 200) acked.favoritesAdded.add(asset);
        else await res.body?.cancel();
      } catch {
        return; // the server died mid-request: not acknowledged
      }
    }
  };
  const keyWorker = async (w: number) => {
    for (let i = 0; !stop; i++) {
      const name = `fault-${cycle}-${w}-${i}`;
      requestedKeyNames.add(name);
      sent++;
      try {
        const res = await fetch(`${url}/v1/users/api_keys`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name }),
        });
        if (res.status === 200) {
          const b = (await res.json()) as { data: { key: string; api_key: { id: string } } };
          acked.keysCreated.set(name, { id: b.data.api_key.id, key: b.data.key });
          // Revoke it again at once (at most 10 active keys), so revocations crash too.
          const del = await fetch(`${url}/v1/users/api_keys/${b.data.api_key.id}`, { method: 'DELETE', headers });
          if (del.status === 200) acked.keysRevoked.add(b.data.api_key.id);
          else await del.body?.cancel();
        } else {
          await res.body?.cancel();
        }
      } catch {
        return;
      }
    }
  };
  const removeDefaults = async () => {
    for (const asset of ['bitcoin', 'ethereum', 'solana']) {
      if (cycle !== 0 || stop) return;
      try {
        const res = await fetch(`${url}/v2/assets/favorites/${asset}`, { method: 'DELETE', headers });
        if (res.status === 200) acked.favoritesRemoved.add(asset);
        else await res.body?.cancel();
      } catch {
        return;
      }
    }
  };
  // Alerts: create, then delete what was created (two workers stay under the free limit of 5 active).
  const alertWorker = async () => {
    while (!stop) {
      sent++;
      try {
        const res = await fetch(`${url}/v1/notifications`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ asset_id: 'bitcoin', kind: 'rsi', target: 95, timeframe: 'd1' }),
        });
        if (res.status !== 200) continue;
        const id = ((await res.json()) as { data: { id: string } }).data.id;
        acked.alertsCreated.add(id);
        sent++;
        const del = await fetch(`${url}/v1/notifications/${id}`, { method: 'DELETE', headers });
        if (del.status === 200) acked.alertsDeleted.add(id);
      } catch {
        return; // the server is gone
      }
    }
  };
  const workers = [
    ...[0, 1, 2, 3].map(favoriteWorker),
    ...[0, 1, 2].map(keyWorker),
    alertWorker(),
    alertWorker(),
    removeDefaults(),
  ];
  // Kill mid-stream: once this cycle has had some writes acknowledged (so writes are surely
  // flowing, however slow the machine), at a different moment each cycle.
  const ackedNow = () =>
    acked.favoritesAdded.size + acked.keysCreated.size + acked.keysRevoked.size + acked.alertsCreated.size;
  const ackedAtStart = ackedNow();
  const deadline = Date.now() + 10_000;
  const alertsAtStart = acked.alertsCreated.size;
  while ((ackedNow() < ackedAtStart + 12 || acked.alertsCreated.size === alertsAtStart) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 2));
  }
  await new Promise((r) => setTimeout(r, 7 * cycle));
  await kill(proc);
  stop = true;
  await Promise.all(workers);
  return sent;
}

function inspect(): {
  integrity: string;
  favorites: string[];
  keys: { id: string; name: string | null; revoked_at: number | null }[];
  alerts: string[];
} {
  const db = new Database(join(dataDir, 'marketlens.sqlite'));
  try {
    const integrity = (db.pragma('integrity_check', { simple: true }) as string) ?? '';
    const user = db.prepare('SELECT id FROM users WHERE email = ?').get('faults@example.com') as { id: string };
    const favorites = (
      db.prepare('SELECT asset_id FROM favorites WHERE user_id = ?').all(user.id) as { asset_id: string }[]
    ).map((r) => r.asset_id);
    const keys = db.prepare('SELECT id, name, revoked_at FROM api_keys WHERE user_id = ?').all(user.id) as {
      id: string;
      name: string | null;
      revoked_at: number | null;
    }[];
    const alerts = (db.prepare('SELECT id FROM alerts WHERE user_id = ?').all(user.id) as { id: string }[]).map(
      (r) => r.id,
    );
    return { integrity, favorites, keys, alerts };
  } finally {
    db.close();
  }
}

describe.skipIf(!existsSync(DIST))('SIGKILL during writes (favorites, API keys, alerts)', () => {
  it('loses nothing acknowledged and duplicates nothing, over several kills', async () => {
    let { url, proc } = await start();
    const signup = await fetch(`${url}/v1/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'faults@example.com', password: 'faults-password-1' }),
    });
    expect(signup.status).toBe(200);
    token = ((await signup.json()) as { data: { session_token: string } }).data.session_token;
    // An alert needs an active device; registering one does not contact the push service.
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const device = await fetch(`${url}/v1/devices`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-session-token': token },
      body: JSON.stringify({
        endpoint: 'https://push.example.com/subscriptions/faults',
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      }),
    });
    expect(device.status).toBe(200);
    const list = await fetch(`${url}/v2/assets/?asset_class=all&limit=500`, { headers: { 'x-session-token': token } });
    assets = ((await list.json()) as { data: { id: string }[] }).data
      .map((a) => a.id)
      .filter((id) => !['bitcoin', 'ethereum', 'solana'].includes(id));
    expect(assets.length).toBeGreaterThan(30);

    let totalSent = 0;
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      totalSent += await hammer(url, cycle, proc);
      const state = inspect();
      expect(state.integrity).toBe('ok');
      // Nothing acknowledged is lost.
      for (const a of acked.favoritesAdded) expect(state.favorites, `favorite ${a}`).toContain(a);
      for (const a of acked.favoritesRemoved) expect(state.favorites, `removed favorite ${a}`).not.toContain(a);
      const byId = new Map(state.keys.map((k) => [k.id, k]));
      for (const [name, k] of acked.keysCreated) expect(byId.get(k.id)?.name, `key ${name}`).toBe(name);
      for (const id of acked.keysRevoked) expect(byId.get(id)?.revoked_at, `revoked key ${id}`).not.toBeNull();
      for (const id of acked.alertsCreated) {
        if (!acked.alertsDeleted.has(id)) expect(state.alerts, `alert ${id}`).toContain(id);
      }
      for (const id of acked.alertsDeleted) expect(state.alerts, `deleted alert ${id}`).not.toContain(id);
      // Nothing duplicated, nothing invented.
      expect(new Set(state.favorites).size).toBe(state.favorites.length);
      for (const f of state.favorites) expect([...assets, 'bitcoin', 'ethereum', 'solana']).toContain(f);
      const names = state.keys.map((k) => k.name);
      expect(new Set(names).size).toBe(names.length);
      for (const n of names) expect(requestedKeyNames.has(String(n))).toBe(true);
      // The restarted server serves what was committed.
      ({ url, proc } = await start());
      const favs = await fetch(`${url}/v1/assets/coins/favorite`, { headers: { 'x-session-token': token } });
      expect(favs.status).toBe(200);
      const keys = (await (
        await fetch(`${url}/v1/users/api_keys`, { headers: { 'x-session-token': token } })
      ).json()) as {
        data: { id: string }[];
      };
      expect(keys.data.length).toBe(state.keys.length);
    }
    await kill(proc);
    console.info(
      `faults: ${CYCLES} SIGKILLs, ${totalSent} writes sent, acknowledged: ${acked.favoritesAdded.size} favorites added, ${acked.favoritesRemoved.size} removed, ${acked.keysCreated.size} keys created, ${acked.keysRevoked.size} revoked, ${acked.alertsCreated.size} alerts created, ${acked.alertsDeleted.size} deleted`,
    );
    // The run did write under the kills (not a vacuous pass).
    expect(acked.favoritesAdded.size).toBeGreaterThan(5);
    expect(acked.keysCreated.size).toBeGreaterThan(2);
    expect(acked.alertsCreated.size).toBeGreaterThanOrEqual(CYCLES);
    expect(totalSent).toBeGreaterThan(acked.favoritesAdded.size + acked.keysCreated.size);
  }, 120_000);
});
