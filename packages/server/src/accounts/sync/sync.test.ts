import {
  type AccountData,
  createCcxtAccountData,
  createSimulatedAccount,
  type FillRequest,
  SIMULATED_VENUE_ID,
  VenueError,
  type VenueFill,
  verifyCcxtCredentials,
} from '@marketlens/exchanges';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SyncTestApp, syncTestApp } from '../../../test/support/sync-app.js';
import { type LocalVenueServer, loadBybitFixture } from '../../../test/support/venues.js';
import type { AccountConnection } from '../config.js';
import { FILLS_LOOKBACK_MS } from './job.js';

const { bybitFailures, bybitHistory, bybitMarkets, bybitRoutes, NOW, startVenueServer } = await loadBybitFixture();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every fill of an account since `since`, read directly (the expected set). */
async function allFills(account: AccountData, since: number): Promise<VenueFill[]> {
  const out: VenueFill[] = [];
  let cursor: string | undefined;
  do {
    const page = await account.fills({ since, cursor });
    out.push(...page.fills);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return out;
}

async function connect(t: SyncTestApp, token: string, body: Record<string, unknown>): Promise<string> {
  const res = await t.post('/v1/connections/user', body, token);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

function storedIds(t: SyncTestApp, connectionId: string): string[] {
  return (
    t.storage.db
      .prepare('SELECT external_id FROM fills WHERE user_connection_id = ? ORDER BY external_id')
      .all(connectionId) as { external_id: string }[]
  ).map((r) => r.external_id);
}

describe('sync with the simulated venue', () => {
  it('stores positions with protective levels and funding, balances and a month of fills', async () => {
    const t = syncTestApp({ fillPageSize: 50 });
    const { token } = await t.signup();
    const id = await connect(t, token, { exchange_id: SIMULATED_VENUE_ID, label: 'demo' });
    const result = await t.scheduler.syncOnce(id);
    expect(result).toMatchObject({ ok: true, positions: 6, balances: 7 });
    expect(result?.fill_pages).toBeGreaterThan(1);

    const positions = await t.storage.positions.openByConnection(id);
    const byPair = new Map(positions.map((p) => [p.pair, p]));
    expect(byPair.get('BTC/USDT:USDT')).toMatchObject({ side: 'long', protective_levels_synced_at: t.clock.now });
    const btc = byPair.get('BTC/USDT:USDT');
    expect(btc?.stop_loss).toBeCloseTo((btc?.entry_price ?? 0) * 0.94, 4);
    expect(btc?.take_profit).toBeCloseTo((btc?.entry_price ?? 0) * 1.1, 4);
    expect(byPair.get('ETH/USDT:USDT')).toMatchObject({ take_profit: null });
    expect(byPair.get('ETH/USDT:USDT')?.stop_loss).toBeGreaterThan(byPair.get('ETH/USDT:USDT')?.entry_price ?? 0);
    expect(byPair.get('AAPLX/USDT:USDT')).toMatchObject({ stop_loss: null });
    expect(byPair.get('EUR/USDT:USDT')).toMatchObject({ stop_loss: null, take_profit: null });
    // The venue reports no funding for the instrument it cannot price: null, never 0.
    expect(byPair.get('FARTCOIN/USDT:USDT')).toMatchObject({ funding_since_open: null, asset_id: null });
    expect(typeof btc?.funding_since_open).toBe('number');
    expect((await t.storage.connections.byId(id))?.protective_levels_synced_at).toBe(t.clock.now);

    const expected = await allFills(
      createSimulatedAccount(t.market, { connection: id }),
      t.clock.now - FILLS_LOOKBACK_MS,
    );
    expect(storedIds(t, id)).toEqual(expected.map((f) => f.external_id).sort());
    const conn = await t.storage.connections.byId(id);
    expect(conn).toMatchObject({ fills_synced_until: t.clock.now, fills_cursor: null, failures: 0, last_error: null });
    expect((await t.storage.balances.byConnection(id)).map((b) => `${b.account}:${b.symbol}`)).toContain(
      'futures:USDT',
    );
  });

  it('re-syncs idempotently: no duplicate fills, notes survive, closed positions close and new ones open', async () => {
    const t = syncTestApp();
    const { token, userId } = await t.signup();
    const id = await connect(t, token, { exchange_id: SIMULATED_VENUE_ID });
    await t.scheduler.syncOnce(id);
    const before = storedIds(t, id);
    const [first] = await t.storage.positions.openByUser(userId, ['bitcoin']);
    await t.storage.positions.setNotes(userId, first.id, 'keep me');

    await t.scheduler.syncOnce(id);
    expect(storedIds(t, id)).toEqual(before);
    t.clock.now += 6 * HOUR;
    const again = await t.scheduler.syncOnce(id);
    expect(again?.ok).toBe(true);
    const after = storedIds(t, id);
    expect(new Set(after).size).toBe(after.length);
    expect(after.length).toBeGreaterThanOrEqual(before.length);
    for (const x of before) expect(after).toContain(x);
    expect(await t.storage.positions.byId(userId, first.id)).toMatchObject({ notes: 'keep me', closed_at: null });

    // Past the next roll every demo position was closed and reopened: new ids, old rows closed.
    t.clock.now += 15 * DAY;
    expect((await t.scheduler.syncOnce(id))?.ok).toBe(true);
    const closed = await t.storage.positions.byId(userId, first.id);
    expect(closed?.closed_at).toBe(t.clock.now);
    expect(closed?.notes).toBe('keep me');
    const open = await t.storage.positions.openByConnection(id);
    expect(open).toHaveLength(6);
    expect(open.map((p) => p.id)).not.toContain(first.id);
    // Incremental reads covered everything from the first sync's month back to now, exactly once.
    const firstSyncStart = t.clock.now - 15 * DAY - 6 * HOUR - FILLS_LOOKBACK_MS;
    const want = await allFills(createSimulatedAccount(t.market, { connection: id }), firstSyncStart);
    expect(storedIds(t, id)).toEqual(want.map((f) => f.external_id).sort());
  });

  it('resumes an interrupted fills read from the stored cursor and backs off, without corrupting state', async () => {
    let failOn = 3;
    let calls = 0;
    const seenCursors: (string | undefined)[] = [];
    const t = syncTestApp({
      fillPageSize: 20,
      random: () => 0,
      sync: { backoffBaseMs: 10_000, backoffMaxMs: 600_000 },
      deps: {
        accountFor: (c: AccountConnection) => {
          const inner = createSimulatedAccount(t.market, { connection: c.id });
          return {
            ...inner,
            connection: inner.connection,
            venue: inner.venue,
            fills: async (r: FillRequest) => {
              calls++;
              seenCursors.push(r.cursor);
              if (calls === failOn) throw new VenueError('maintenance', 'Venue is under maintenance', { venue: 'sim' });
              return inner.fills(r);
            },
          };
        },
      },
    });
    const { token } = await t.signup();
    const id = await connect(t, token, { exchange_id: SIMULATED_VENUE_ID });
    const failed = await t.scheduler.syncOnce(id);
    expect(failed).toMatchObject({ ok: false, error: 'Venue is under maintenance' });
    const conn = await t.storage.connections.byId(id);
    expect(conn).toMatchObject({ failures: 1, last_error: 'Venue is under maintenance', fills_synced_until: null });
    expect(conn?.fills_cursor).not.toBeNull();
    // Equal jitter with random 0: half the base delay.
    expect(conn?.next_sync_at).toBe(t.clock.now + 5_000);
    const partial = storedIds(t, id);
    expect(partial.length).toBe(40);
    // Positions and balances of the attempt were stored before the fills failed; nothing is half-written.
    expect(await t.storage.positions.openByConnection(id)).toHaveLength(6);

    // Not due yet: a tick does nothing.
    expect(await t.scheduler.tick(t.clock.now + 4_999)).toEqual([]);
    failOn = 4; // the next attempt's first fills call fails again
    t.clock.now += 5_000;
    const second = await t.scheduler.tick(t.clock.now);
    expect(second).toHaveLength(1);
    expect(second[0]).toMatchObject({ ok: false });
    expect((await t.storage.connections.byId(id))?.failures).toBe(2);
    expect((await t.storage.connections.byId(id))?.next_sync_at).toBe(t.clock.now + 10_000);
    // The failed attempt resumed from the stored cursor (it did not start over).
    expect(seenCursors[3]).toBe(conn?.fills_cursor);
    expect(storedIds(t, id)).toEqual(partial);

    failOn = -1;
    t.clock.now += 10_000;
    const third = await t.scheduler.tick(t.clock.now);
    expect(third[0]).toMatchObject({ ok: true });
    expect(await t.storage.connections.byId(id)).toMatchObject({ failures: 0, last_error: null, fills_cursor: null });
    const expected = await allFills(
      createSimulatedAccount(t.market, { connection: id }),
      conn?.fills_cursor_since ?? 0,
    );
    const stored = storedIds(t, id);
    expect(new Set(stored).size).toBe(stored.length);
    // Everything from the original window is there (the clock moved 15 s: maybe more, never less).
    for (const f of expected) if (f.time <= (conn?.fills_cursor_until ?? 0)) expect(stored).toContain(f.external_id);
  });

  it('times a hanging venue call out, and caps concurrent syncs', async () => {
    const TIMEOUT_MS = 60_000;
    // Syncs inside positions() now, the hanging one included (it never leaves).
    let active = 0;
    let peak = 0;
    const hang = new Set<string>();
    const t = syncTestApp({
      sync: { callTimeoutMs: TIMEOUT_MS, concurrency: 2 },
      deps: {
        accountFor: (c: AccountConnection) => {
          const inner = createSimulatedAccount(t.market, { connection: c.id });
          return {
            ...inner,
            connection: inner.connection,
            venue: inner.venue,
            positions: async () => {
              active++;
              peak = Math.max(peak, active);
              try {
                if (hang.has(c.id)) await new Promise(() => {});
                // One turn of the event loop, so syncs that may run together are in here together:
                // without the cap, all five would be.
                await new Promise((r) => setImmediate(r));
                return await inner.positions();
              } finally {
                active--;
              }
            },
          };
        },
      },
    });
    const { token } = await t.signup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await connect(t, token, { exchange_id: SIMULATED_VENUE_ID }));
    hang.add(ids[0]);
    // The call timeout's timer runs on a fake clock that only the test moves: an answering call can
    // never time out, however slow the machine, and the hanging one times out exactly at the limit.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let hungResult: Awaited<ReturnType<typeof t.scheduler.syncOnce>> | undefined;
      const hung = t.scheduler.syncOnce(ids[0]).then((r) => {
        hungResult = r;
      });
      // The hanging sync holds one of the two slots; the four others take turns in the other one.
      const answered = await Promise.all(ids.slice(1).map((id) => t.scheduler.syncOnce(id)));
      expect(answered.every((r) => r?.ok === true)).toBe(true);
      expect(peak).toBe(2);
      await vi.advanceTimersByTimeAsync(TIMEOUT_MS - 1);
      expect(hungResult).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await hung;
      expect(hungResult).toMatchObject({ ok: false });
      expect(hungResult?.error).toMatch(/did not answer within 60000 ms/);
      // A tick starts at most `concurrency` syncs.
      await t.storage.connections.scheduleAt(ids[1], 0);
      await t.storage.connections.scheduleAt(ids[2], 0);
      await t.storage.connections.scheduleAt(ids[3], 0);
      expect(await t.scheduler.tick(t.clock.now)).toHaveLength(2);
      await t.scheduler.stop();
      expect(await t.scheduler.syncOnce(ids[4])).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('sync with a real ccxt client against the local venue server (bybit)', () => {
  let server: LocalVenueServer;
  const history = bybitHistory();
  beforeAll(async () => {
    server = await startVenueServer();
    server.routes(bybitRoutes(history));
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const ccxt = () => ({
    proxyUrl: server.proxyUrl,
    markets: bybitMarkets,
    rateLimit: false,
    timeoutMs: 2000,
    now: () => NOW,
  });
  const app = () =>
    syncTestApp({
      now: NOW,
      random: () => 0,
      deps: {
        accountFor: (c, credentials) =>
          createCcxtAccountData({ ...ccxt(), venue: c.venue, connection: c.id, credentials }),
        verifyCredentials: (venue, credentials) => verifyCcxtCredentials({ ...ccxt(), venue, credentials }),
      },
    });
  const SECRET = 'bybit-secret-value-4242';
  const KEY = 'bybit-api-key-7777';

  it('syncs positions, protective levels, funding, balances and every fill; a re-sync adds nothing', async () => {
    const t = app();
    const { token, userId } = await t.signup();
    const id = await connect(t, token, { exchange_id: 'bybit', apiKey: KEY, secret: SECRET });
    const result = await t.scheduler.syncOnce(id);
    expect(result).toMatchObject({ ok: true, positions: 1 });
    const [p] = await t.storage.positions.openByUser(userId);
    expect(p).toMatchObject({
      pair: 'BTCUSDT',
      asset_id: 'bitcoin',
      side: 'long',
      size: 0.25,
      entry_price: 58000,
      stop_loss: 55000,
      take_profit: 75000,
      protective_levels_synced_at: NOW,
      opened_at: NOW - 5 * DAY,
    });
    const funding = history.funding
      .filter((f) => Number(f.execTime) >= NOW - 5 * DAY)
      .reduce((s, f) => s + Number(f.execFee), 0);
    expect(p.funding_since_open).toBeCloseTo(funding, 9);
    expect((await t.storage.balances.byUser(userId)).length).toBeGreaterThan(0);
    const stored = storedIds(t, id);
    expect(stored).toHaveLength(history.trades.length);
    expect(new Set(stored)).toEqual(new Set(history.trades.map((x) => String(x.execId))));

    t.clock.now += HOUR;
    expect((await t.scheduler.syncOnce(id))?.ok).toBe(true);
    expect(storedIds(t, id)).toEqual(stored);
    const [again] = await t.storage.positions.openByUser(userId);
    expect(again.id).toBe(p.id);
    expect(server.unmatched).toEqual([]);
  });

  it('backs off on a venue outage and a rate limit, keeping what is stored', async () => {
    const t = app();
    const { token, userId } = await t.signup();
    const id = await connect(t, token, { exchange_id: 'bybit', apiKey: KEY, secret: SECRET });
    await t.scheduler.syncOnce(id);
    const positionsBefore = await t.storage.positions.openByUser(userId);
    const balancesBefore = await t.storage.balances.byUser(userId);
    const fillsBefore = storedIds(t, id);

    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/position/list',
      reply: () => bybitFailures.maintenance,
    });
    const down = await t.scheduler.syncOnce(id);
    expect(down).toMatchObject({ ok: false });
    let conn = await t.storage.connections.byId(id);
    expect(conn?.failures).toBe(1);
    expect(conn?.next_sync_at).toBe(NOW + t.deps.config.sync.backoffBaseMs / 2);
    expect(await t.storage.positions.openByUser(userId)).toEqual(positionsBefore);
    expect(await t.storage.balances.byUser(userId)).toEqual(balancesBefore);
    expect(storedIds(t, id)).toEqual(fillsBefore);

    server.reset();
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/position/list',
      reply: () => bybitFailures.rateLimit,
    });
    await t.scheduler.syncOnce(id);
    conn = await t.storage.connections.byId(id);
    expect(conn?.failures).toBe(2);
    // Bybit said retry-after 2 s; the backoff (30 s base, doubled) is longer and wins.
    expect(conn?.next_sync_at).toBe(NOW + t.deps.config.sync.backoffBaseMs);

    server.reset();
    server.override({
      method: 'GET',
      host: 'api.bybit.com',
      path: '/v5/position/list',
      reply: () => bybitFailures.badKey,
    });
    await t.scheduler.syncOnce(id);
    conn = await t.storage.connections.byId(id);
    expect(conn).toMatchObject({ failures: 3, last_error: 'Bybit rejected the API key: API key is invalid.' });

    server.reset();
    expect((await t.scheduler.syncOnce(id))?.ok).toBe(true);
    expect(await t.storage.connections.byId(id)).toMatchObject({ failures: 0, last_error: null });
  });
});
