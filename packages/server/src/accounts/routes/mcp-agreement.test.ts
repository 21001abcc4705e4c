import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedAccount } from '../../../test/support/account-seed.js';
import { type Harness, harness } from '../../../test/support/harness.js';
import { connectedClient, toolRefusal as toolRefusalOf, toolResult } from '../../../test/support/mcp-agreement.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';

/**
 * The account resources answer the same over REST and MCP: each tool's `structuredContent` equals
 * the `data` of the route that serves the same resource (both call the same accounts use case), and
 * a refusal carries the same error code on both.
 */

const T0 = Date.UTC(2026, 0, 10);
const HOUR = 3_600_000;

let h: Harness;
let token: string;
let client: Client;
let positionId: string;

beforeAll(async () => {
  h = harness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const user = await h.signup();
  token = user.token;
  await seedAccount(h.storage, user.userId, 'bybit', {
    at: h.clock.now - 60_000,
    protectiveSynced: true,
    positions: [
      {
        pair: 'BTCUSDT',
        asset_id: 'bitcoin',
        side: 'long',
        size: 0.5,
        entry_price: 90_000,
        mark_price: 100_000,
        margin: 5_000,
        leverage: 10,
        liquidation_price: 81_000,
        opened_at: h.clock.now - 3 * 86_400_000,
      },
      { pair: 'ZZZUSDT', asset_id: null, side: 'short', size: 10, entry_price: 2, mark_price: null },
      { pair: 'ETHUSDT', asset_id: 'ethereum', side: 'short', size: 2, entry_price: 3_000, mark_price: null },
    ],
    extras: [{ stop_loss: 85_000, take_profit: 0 }],
    balances: [
      { symbol: 'USDT', asset_id: 'tether', total: 1_000, free: 900, used: 100 },
      { symbol: 'btc', asset_id: 'bitcoin', total: 0.1 },
      { symbol: 'ZZZ', asset_id: null, total: 50 },
    ],
    fills: [
      { external_id: 'f1', order_id: 'o1', time: T0, price: 100, amount: 1, fee: 0.1, fee_currency: 'usdt' },
      { external_id: 'f2', order_id: 'o1', time: T0 + HOUR, price: 104, amount: 3, fee: 0.3, fee_currency: 'USDT' },
      { external_id: 'f3', order_id: null, time: T0 + 2 * HOUR, pair: 'ZZZUSDT', asset_id: null, price: 1, amount: 5 },
    ],
  });
  const user_ = await h.storage.users.byId(user.userId);
  if (user_ === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, rateLimit: { limit: 1_000_000, windowMs: 60_000 } },
    now: () => h.clock.now,
    market: h.market,
  };
  const backend = mcpBackend(deps, {
    kind: 'session',
    user: user_,
    tier: 'free',
    tier_expires_at: null,
    api_key_id: null,
  });
  client = await connectedClient(backend);
  const btc = (await h.storage.positions.openByUser(user.userId)).find((p) => p.pair === 'BTCUSDT');
  if (btc === undefined) throw new Error('no position');
  positionId = btc.id;
});

async function rest(path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await h.request(path, { ...init, headers: { 'x-session-token': token, ...init.headers } });
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

function tool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolResult(client, name, args);
}

/** The error code of a refused REST request (its status checked). */
async function restRefusal(path: string, status: number, init: RequestInit = {}): Promise<unknown> {
  const res = await h.request(path, { ...init, headers: { 'x-session-token': token, ...init.headers } });
  expect(res.status, path).toBe(status);
  return ((await res.json()) as { code: unknown }).code;
}

/** The error code of a refused tool call. */
function toolRefusal(name: string, args: Record<string, unknown>): Promise<unknown> {
  return toolRefusalOf(client, name, args);
}

const UNKNOWN_POSITION = '00000000-0000-4000-8000-000000000000';

describe('account resources over REST and MCP', () => {
  it.each([
    ['/v2/positions', 'get_positions'],
    ['/v2/balances', 'get_balances'],
    ['/v1/orders', 'get_orders'],
    ['/v1/trades', 'get_trades'],
  ])('%s data equals %s structuredContent', async (path, name) => {
    const data = await rest(path);
    expect(await tool(name)).toEqual(data);
  });

  it.each([
    ['/v2/positions?asset_ids=bitcoin', 'get_positions', { asset_ids: ['bitcoin'] }],
    [
      '/v2/balances?connection_id=bybit&asset_ids=tether',
      'get_balances',
      { connection_id: 'bybit', asset_ids: ['tether'] },
    ],
    ['/v1/orders?side=buy&limit=1', 'get_orders', { side: 'buy', limit: 1 }],
    ['/v1/trades?asset_id=bitcoin&offset=1', 'get_trades', { asset_id: 'bitcoin', offset: 1 }],
  ])('%s data equals %s structuredContent with the same filters', async (path, name, args) => {
    const data = await rest(path);
    expect(await tool(name, args)).toEqual(data);
  });

  it('get_portfolio_summary is the positions block of /v2/portfolio/summary', async () => {
    const data = (await rest('/v2/portfolio/summary')) as { positions: unknown };
    expect(await tool('get_portfolio_summary')).toEqual(data.positions);
    // Filtered, the tool answers the totals of the filtered positions (the summary route takes no filter).
    const bitcoin = (await rest('/v2/positions?asset_ids=bitcoin')) as { totals: unknown };
    expect(await tool('get_portfolio_summary', { asset_ids: ['bitcoin'] })).toEqual(bitcoin.totals);
  });

  it('a position analysis and an edited position are the same object on both', async () => {
    const analysis = await rest(`/v2/positions/${positionId}/analysis?timeframe=d1`);
    expect(await tool('position_analysis', { position_id: positionId, timeframe: 'd1' })).toEqual(analysis);
    const edited = await rest(`/v2/positions/${positionId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notes: 'hold' }),
    });
    expect(await tool('edit_position', { position_id: positionId, notes: 'hold' })).toEqual(edited);
  });

  it('an unknown position is refused with PositionNotFound on both', async () => {
    const analysis = await restRefusal(`/v2/positions/${UNKNOWN_POSITION}/analysis?timeframe=d1`, 404);
    expect(analysis).toBe('PositionNotFound');
    expect(await toolRefusal('position_analysis', { position_id: UNKNOWN_POSITION, timeframe: 'd1' })).toBe(analysis);
    const edited = await restRefusal(`/v2/positions/${UNKNOWN_POSITION}`, 404, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ notes: 'hold' }),
    });
    expect(edited).toBe('PositionNotFound');
    expect(await toolRefusal('edit_position', { position_id: UNKNOWN_POSITION, notes: 'hold' })).toBe(edited);
  });

  it('a paid timeframe of a position analysis is refused to a free caller with 1004 on both', async () => {
    const code = await restRefusal(`/v2/positions/${positionId}/analysis?timeframe=h1`, 402);
    expect(code).toBe(1004);
    expect(await toolRefusal('position_analysis', { position_id: positionId, timeframe: 'h1' })).toBe(code);
  });
});
