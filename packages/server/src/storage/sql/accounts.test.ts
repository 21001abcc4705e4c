import type { VenueFill, VenuePosition } from '@marketlens/exchanges';
import { expect, it } from 'vitest';
import { describeEngines, rows, type TestEngine } from '../../../test/support/storage/engines.js';
import type { ConnectionRecord } from '../account-types.js';

const T0 = Date.UTC(2026, 0, 10);

async function setup(engine: TestEngine) {
  const s = await engine.open();
  await s.users.create({ id: 'u1', email: 'a@example.com', password_hash: 'x', tier: 'free', created_at: T0 }, []);
  await s.users.create({ id: 'u2', email: 'b@example.com', password_hash: 'x', tier: 'free', created_at: T0 }, []);
  const conn = (id: string, user = 'u1', venue = 'bybit'): ConnectionRecord => ({
    id,
    user_id: user,
    venue,
    label: null,
    credentials: 'blob',
    created_at: T0,
    last_sync_at: null,
    last_success_at: null,
    last_error: null,
    failures: 0,
    next_sync_at: T0,
    fills_synced_until: null,
    fills_cursor: null,
    fills_cursor_since: null,
    fills_cursor_until: null,
    protective_levels_synced_at: null,
  });
  await s.connections.create(conn('c1'));
  await s.connections.create(conn('c2', 'u1', 'okx'));
  await s.connections.create(conn('c3', 'u2'));
  return s;
}

const position = (over: Partial<VenuePosition> = {}): VenuePosition => ({
  connection: 'c1',
  pair: 'BTCUSDT',
  asset_id: 'bitcoin',
  market_type: 'derivatives',
  side: 'long',
  size: 0.5,
  entry_price: 60000,
  mark_price: 61000,
  margin: 3000,
  leverage: 10,
  liquidation_price: 54000,
  unrealized_pnl: 500,
  settle: 'USDT',
  opened_at: T0 - 86_400_000,
  updated_at: T0,
  ...over,
});

const fill = (i: number, over: Partial<VenueFill> = {}): VenueFill => ({
  connection: 'c1',
  external_id: `t${i}`,
  order_id: `o${Math.floor(i / 2)}`,
  pair: i % 3 === 0 ? 'ETHUSDT' : 'BTCUSDT',
  asset_id: i % 3 === 0 ? 'ethereum' : 'bitcoin',
  market_type: 'derivatives',
  side: i % 2 === 0 ? 'buy' : 'sell',
  price: 100 + i,
  amount: 1,
  fee: 0.1,
  fee_currency: 'USDT',
  realized_pnl: null,
  time: T0 + i * 1000,
  ...over,
});

const owner = { user_id: 'u1', user_connection_id: 'c1', venue: 'bybit' };

describeEngines('positions', (engine) => {
  it('keeps the id and the notes across syncs, and closes positions the venue no longer reports', async () => {
    const s = await setup(engine);
    await s.positions.applySync({
      ...owner,
      rows: [
        { position: position(), stop_loss: 55000, take_profit: null, funding_since_open: -1.5 },
        {
          position: position({ pair: 'ETHUSDT', side: 'short', asset_id: 'ethereum' }),
          stop_loss: null,
          take_profit: null,
          funding_since_open: null,
        },
      ],
      at: T0,
      protective_synced_at: T0,
    });
    const [btc] = await s.positions.openByUser('u1', ['bitcoin']);
    expect(btc).toMatchObject({ pair: 'BTCUSDT', stop_loss: 55000, take_profit: null, funding_since_open: -1.5 });
    expect(await s.positions.setNotes('u1', btc.id, 'thesis: breakout')).toMatchObject({ notes: 'thesis: breakout' });
    expect(await s.positions.setNotes('u2', btc.id, 'not mine')).toBeNull();

    // Second sync: protective read failed (levels kept), funding read failed (kept), ETH gone.
    await s.positions.applySync({
      ...owner,
      rows: [
        {
          position: position({ mark_price: 62000 }),
          stop_loss: null,
          take_profit: null,
          funding_since_open: undefined,
        },
      ],
      at: T0 + 60_000,
      protective_synced_at: null,
    });
    const open = await s.positions.openByUser('u1');
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: btc.id,
      notes: 'thesis: breakout',
      mark_price: 62000,
      stop_loss: 55000,
      protective_levels_synced_at: T0,
      funding_since_open: -1.5,
      last_seen_at: T0 + 60_000,
    });
    const [eth] = await rows<{ closed_at: number }>(s, "SELECT * FROM positions WHERE pair = 'ETHUSDT'");
    expect(eth.closed_at).toBe(T0 + 60_000);
    expect((await s.connections.byId('c1'))?.protective_levels_synced_at).toBe(T0);
  });

  it('a re-sync with the same rows is idempotent; a new opening time is a new position', async () => {
    const s = await setup(engine);
    const sync = (opened: number, at: number) =>
      s.positions.applySync({
        ...owner,
        rows: [
          { position: position({ opened_at: opened }), stop_loss: null, take_profit: 70000, funding_since_open: 2 },
        ],
        at,
        protective_synced_at: at,
      });
    await sync(T0, T0);
    await sync(T0, T0 + 1);
    await sync(T0, T0 + 2);
    const [first] = await s.positions.openByConnection('c1');
    expect(await rows(s, 'SELECT COUNT(*) AS n FROM positions')).toEqual([{ n: 1 }]);
    await sync(T0 + 5, T0 + 3);
    const [second] = await s.positions.openByConnection('c1');
    expect(second.id).not.toBe(first.id);
    expect(await s.positions.byId('u1', first.id)).toMatchObject({ closed_at: T0 + 3 });
    expect(await s.positions.byId('u2', first.id)).toBeNull();
  });

  it('filters open positions by asset and by user', async () => {
    const s = await setup(engine);
    await s.positions.applySync({
      ...owner,
      rows: [
        { position: position(), stop_loss: null, take_profit: null, funding_since_open: null },
        {
          position: position({ pair: 'FARTCOIN/USDT:USDT', asset_id: null }),
          stop_loss: null,
          take_profit: null,
          funding_since_open: null,
        },
      ],
      at: T0,
      protective_synced_at: null,
    });
    expect((await s.positions.openByUser('u1')).map((p) => p.pair)).toEqual(['BTCUSDT', 'FARTCOIN/USDT:USDT']);
    expect((await s.positions.openByUser('u1', ['ethereum'])).length).toBe(0);
    expect(await s.positions.openByUser('u2')).toEqual([]);
    expect((await s.positions.openByUser('u1'))[1]).toMatchObject({
      protective_levels_synced_at: null,
      stop_loss: null,
    });
  });
});

describeEngines('balances', (engine) => {
  it('replaces the lines of one connection, keyed on (connection, symbol, account)', async () => {
    const s = await setup(engine);
    const line = (symbol: string, account: string, total: number) => ({
      connection: 'c1',
      symbol,
      asset_id: null,
      account,
      total,
      free: total,
      used: 0,
    });
    await s.balances.replace(owner, [line('USDT', 'spot', 10), line('usdt', 'futures', 5), line('BTC', 'spot', 1)], T0);
    await s.balances.replace(
      { user_id: 'u1', user_connection_id: 'c2', venue: 'okx' },
      [line('USDT', 'trading', 7)],
      T0,
    );
    await s.balances.replace(owner, [line('USDT', 'spot', 11), line('USDT', 'futures', 4)], T0 + 1);
    const rows = await s.balances.byUser('u1');
    expect(rows.map((r) => [r.user_connection_id, r.account, r.symbol, r.total])).toEqual([
      ['c1', 'futures', 'USDT', 4],
      ['c1', 'spot', 'USDT', 11],
      ['c2', 'trading', 'USDT', 7],
    ]);
    expect(await s.balances.byUser('u2')).toEqual([]);
  });
});

describeEngines('fills', (engine) => {
  it('is unique on (external_id, connection): re-reading a window never duplicates', async () => {
    const s = await setup(engine);
    const page = (fills: VenueFill[], next: Parameters<typeof s.fills.commitPage>[0]['next']) =>
      s.fills.commitPage({ ...owner, fills, at: T0, next });
    expect(await page([fill(1), fill(2), fill(3)], { done: false, cursor: 'p2', since: T0, until: T0 + 10_000 })).toBe(
      3,
    );
    expect(await s.connections.byId('c1')).toMatchObject({ fills_cursor: 'p2', fills_cursor_since: T0 });
    expect(await page([fill(2), fill(3), fill(4)], { done: true, synced_until: T0 + 10_000 })).toBe(1);
    expect(await page([fill(1), fill(4)], { done: true, synced_until: T0 + 10_000 })).toBe(0);
    expect(await s.fills.countByConnection('c1')).toBe(4);
    expect(await s.connections.byId('c1')).toMatchObject({ fills_cursor: null, fills_synced_until: T0 + 10_000 });
    // The same trade id on another connection is another fill.
    await s.fills.commitPage({
      user_id: 'u1',
      user_connection_id: 'c2',
      venue: 'okx',
      fills: [fill(1)],
      at: T0,
      next: { done: true, synced_until: T0 },
    });
    expect(await s.fills.countByConnection('c2')).toBe(1);
  });

  it('filters by connection, venue, pair, asset, side and inclusive time bounds, newest first, with a total', async () => {
    const s = await setup(engine);
    await s.fills.commitPage({
      ...owner,
      fills: Array.from({ length: 10 }, (_, i) => fill(i)),
      at: T0,
      next: { done: true, synced_until: T0 },
    });
    await s.fills.commitPage({
      user_id: 'u1',
      user_connection_id: 'c2',
      venue: 'okx',
      fills: [fill(100)],
      at: T0,
      next: { done: true, synced_until: T0 },
    });
    const all = await s.fills.page({ user_id: 'u1' }, { limit: 3, offset: 1 });
    expect(all.total).toBe(11);
    expect(all.fills.map((f) => f.external_id)).toEqual(['t9', 't8', 't7']);
    expect((await s.fills.page({ user_id: 'u1', venue: 'okx' })).total).toBe(1);
    expect((await s.fills.page({ user_id: 'u1', user_connection_id: 'c1' })).total).toBe(10);
    expect((await s.fills.all({ user_id: 'u1', pair: 'ETHUSDT' })).map((f) => f.external_id)).toEqual([
      't9',
      't6',
      't3',
      't0',
    ]);
    expect((await s.fills.all({ user_id: 'u1', asset_id: 'ethereum', side: 'buy' })).map((f) => f.external_id)).toEqual(
      ['t6', 't0'],
    );
    expect((await s.fills.all({ user_id: 'u1', start: T0 + 2000, end: T0 + 4000 })).map((f) => f.external_id)).toEqual([
      't4',
      't3',
      't2',
    ]);
    expect((await s.fills.page({ user_id: 'u2' })).total).toBe(0);
  });
});

describeEngines('connections', (engine) => {
  it('lists due connections and records outcomes without touching synced data', async () => {
    const s = await setup(engine);
    expect((await s.connections.due(T0, 10)).map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    await s.connections.recordOutcome('c1', { at: T0, next_sync_at: T0 + 1000, error: 'Bybit is down', failures: 2 });
    expect(await s.connections.byId('c1')).toMatchObject({
      last_error: 'Bybit is down',
      failures: 2,
      last_success_at: null,
      next_sync_at: T0 + 1000,
    });
    expect((await s.connections.due(T0, 10)).map((c) => c.id)).toEqual(['c2', 'c3']);
    await s.connections.recordOutcome('c1', { at: T0 + 5, next_sync_at: T0 + 99, error: null, failures: 0 });
    expect(await s.connections.byId('c1')).toMatchObject({ last_error: null, failures: 0, last_success_at: T0 + 5 });
    expect(await s.connections.scheduleAt('c1', T0)).toBe(true);
    expect(await s.connections.scheduleAt('nope', T0)).toBe(false);
    expect((await s.connections.byUser('u1')).map((c) => c.id)).toEqual(['c1', 'c2']);
  });
});
