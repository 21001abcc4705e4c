import { randomBytes } from 'node:crypto';
import { OPERATIONS, ToolErrorContentSchema } from '@marketlens/contract';
import {
  CATALOG,
  MCP_PACKAGE_VERSION,
  type OperationRunner,
  type PositionsData,
  renderPosition,
  renderTotals,
} from '@marketlens/mcp';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAccount } from '../../test/support/account-seed.js';
import { type Harness, harness } from '../../test/support/harness.js';
import { mcpUser, type RunLog } from '../../test/support/mcp-agreement.js';

/**
 * The MCP tool catalog (@marketlens/mcp) over the server's backend: the real use cases over the
 * harness's in-memory SQLite storage and simulated venue. Moved here from @marketlens/mcp, where they
 * ran over a fake backend of canned data (issue 39.3): what each test checks is kept, against what
 * the service really answers.
 */

const config = { rateLimit: { limit: 1_000_000, windowMs: 60_000 } };

let h: Harness;
let client: Client;
let calls: RunLog;
let token: string;
const others: Client[] = [];

beforeAll(async () => {
  const credentialsKey = randomBytes(32);
  h = harness(config, undefined, { credentialsKey });
  ({ client, calls, token } = await mcpUser(h, { config, deps: { credentialsKey } }));
});

afterAll(async () => {
  await client.close();
  for (const c of others) await c.close();
});

/** The envelope of `GET path` over REST, as the MCP user. */
async function rest(path: string): Promise<{ code: unknown; message: unknown; data: unknown }> {
  const res = await h.request(path, { headers: { 'x-session-token': token } });
  return (await res.json()) as { code: unknown; message: unknown; data: unknown };
}

/** Calls a tool, and checks its structured content against the tool's output schema (or the error shape). */
async function call(name: string, args: Record<string, unknown> = {}, over: Client = client) {
  const r = (await over.callTool({ name, arguments: args })) as CallToolResult;
  const tool = CATALOG.find((t) => t.name === name);
  const checked = (r.isError ? ToolErrorContentSchema : tool?.output)?.safeParse(r.structuredContent);
  expect(checked?.success, `${name}: ${checked?.error?.message}`).toBe(true);
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, unknown> };
}

describe('catalog', () => {
  it('lists every tool the issue names, with object input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'get_positions',
      'get_portfolio_summary',
      'get_balances',
      'get_orders',
      'get_trades',
      'position_analysis',
      'edit_position',
      'get_trading_signals',
      'get_asset_markets',
      'add_favorite_asset',
      'remove_favorite_asset',
      'get_account_info',
      'list_exchanges',
      'get_exchange_detail',
      'get_asset_analysis',
      'get_asset_signal',
      'get_fear_greed',
      'get_screener',
      'get_alerts',
      'create_price_alert',
      'delete_alert',
      'get_notification_preferences',
      'update_notification_preferences',
      'register_alert_webhook',
      'list_alert_webhooks',
      'delete_alert_webhook',
      'get_pilot_spectate',
      'get_pilot_spectate_history',
      'get_track_record',
    ]) {
      expect(names).toContain(name);
    }
    expect(new Set(names).size).toBe(names.length);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.description?.length ?? 0).toBeGreaterThan(20);
    }
    const signals = tools.find((t) => t.name === 'get_trading_signals');
    expect(JSON.stringify(signals?.inputSchema)).toContain('"1h"');
    expect(JSON.stringify(signals?.inputSchema)).toContain('"15m"');
  });

  it('leaves out the tools whose operation the backend does not run', async () => {
    // A backend without a session: it runs only the operations an API key may call.
    const { client: keyOnly } = await mcpUser(h, {
      config,
      wrap: (b) => ({ ...b, runs: (id) => OPERATIONS[id].caller !== 'session' }),
    });
    others.push(keyOnly);
    const names = (await keyOnly.listTools()).tools.map((t) => t.name);
    expect(names).toContain('get_asset_analysis');
    // every signed-in user may read the track record (moved from @marketlens/mcp's fake backend)
    expect(names).toContain('get_track_record');
    expect(names).not.toContain('get_positions');
    expect(names).not.toContain('add_favorite_asset');
  });
});

describe('tool errors', () => {
  it('reads 1h as h1 and answers the REST code and message for a paid timeframe', async () => {
    const before = calls['analysis.get']?.length ?? 0;
    const r = await call('get_asset_analysis', { asset_id: 'bitcoin', timeframe: '1h' });
    expect((calls['analysis.get']?.[before] as { timeframe?: string } | undefined)?.timeframe).toBe('h1');
    const refused = await rest('/v2/analysis/bitcoin?timeframe=h1');
    expect(refused.code).toBe(1004);
    expect(r.isError).toBe(true);
    expect(r.data).toEqual({ code: 1004, message: refused.message });
    expect(r.text).toBe(`Error 1004: ${refused.message}`);
  });

  it('answers InvalidRequest for bad arguments, as REST answers 400', async () => {
    const r = await call('get_asset_analysis', { asset_id: 'bitcoin', timeframe: '2h' });
    expect(r.isError).toBe(true);
    expect(r.data.code).toBe('InvalidRequest');
    expect(String(r.data.message)).toContain('timeframe');
    const missing = await call('get_asset_analysis', {});
    expect(missing.data.code).toBe('InvalidRequest');
  });

  it('answers an unknown asset with UnknownAsset and the REST message', async () => {
    const r = await call('get_asset_analysis', { asset_id: 'nope' });
    const refused = await rest('/v2/analysis/nope');
    expect(refused.code).toBe('UnknownAsset');
    expect(r.data).toEqual({ code: 'UnknownAsset', message: refused.message });
  });

  it('hides an uncoded failure behind code 1', async () => {
    const { client: failing } = await mcpUser(h, {
      config,
      wrap: (b) => ({
        ...b,
        run: ((id, input) => {
          if (id === 'market.exchanges') return Promise.reject(new Error('database is on fire'));
          return b.run(id, input);
        }) as OperationRunner,
      }),
    });
    others.push(failing);
    const r = await call('list_exchanges', {}, failing);
    expect(r.data).toEqual({ code: 1, message: 'Internal error' });
    expect(r.text).not.toContain('fire');
  });
});

describe('account tools', () => {
  it('get_account_info and favorites add/remove (idempotent)', async () => {
    expect((await call('get_account_info')).text).toContain('Tier: free');
    const before = (await rest('/v2/assets/favorites?asset_class=all&limit=500')).data as { id: string }[];
    const coins = (await rest('/v2/assets/?asset_class=coins&limit=50')).data as { id: string }[];
    const fresh = coins.map((c) => c.id).find((id) => !before.some((f) => f.id === id));
    if (fresh === undefined) throw new Error('every listed coin is a favorite already');
    expect((await call('add_favorite_asset', { asset_id: fresh })).data).toEqual({
      asset_id: fresh,
      is_favorite: true,
    });
    await call('add_favorite_asset', { asset_id: fresh });
    const after = (await rest('/v2/assets/favorites?asset_class=all&limit=500')).data as { id: string }[];
    expect(after.map((f) => f.id).sort()).toEqual([...before.map((f) => f.id), fresh].sort());
    const notFavorite = coins.map((c) => c.id).find((id) => !after.some((f) => f.id === id));
    if (notFavorite === undefined) throw new Error('no coin left that is not a favorite');
    expect((await call('remove_favorite_asset', { asset_id: notFavorite })).isError).toBeFalsy();
    expect((await call('add_favorite_asset', { asset_id: 'nope' })).data.code).toBe('UnknownAsset');
    const favs = await call('get_favorite_assets');
    expect(favs.text).toContain(`Favorites: ${after.length}`);
  });
});

describe('portfolio tools', () => {
  /** A user with one exchange account: a priced long on bitcoin, an unpriced short on an untracked pair. */
  let portfolio: Client;
  let portfolioCalls: RunLog;
  let restAs: (path: string) => Promise<{ code: unknown; message: unknown; data: unknown }>;
  let priced: string;
  let unpriced: string;

  beforeAll(async () => {
    const user = await mcpUser(h, { config });
    portfolio = user.client;
    portfolioCalls = user.calls;
    others.push(portfolio);
    await seedAccount(h.storage, user.userId, 'bybit', {
      at: h.clock.now - 60_000,
      positions: [
        { pair: 'BTCUSDT', asset_id: 'bitcoin', side: 'long', size: 2, entry_price: 100, mark_price: 110 },
        { pair: 'ODDCOIN-PERP', asset_id: null, side: 'short', size: 7, entry_price: 3, mark_price: null },
      ],
      balances: [
        { symbol: 'USDT', asset_id: 'tether', total: 50 },
        { symbol: 'ODD', asset_id: null, total: 9 },
      ],
      fills: [
        { external_id: 'fill-1', order_id: 'order-1', time: Date.UTC(2026, 0, 10), side: 'buy', price: 100, amount: 2 },
      ],
    });
    restAs = async (path) => {
      const res = await h.request(path, { headers: { 'x-session-token': user.token } });
      return (await res.json()) as { code: unknown; message: unknown; data: unknown };
    };
    const rows = ((await restAs('/v2/positions')).data as { positions: { id: string; pair: string }[] }).positions;
    priced = rows.find((p) => p.pair === 'BTCUSDT')?.id ?? '';
    unpriced = rows.find((p) => p.pair === 'ODDCOIN-PERP')?.id ?? '';
  });

  const on = (name: string, args: Record<string, unknown> = {}) => call(name, args, portfolio);

  it('get_positions lists unpriced rows as themselves with unavailable mark and PnL', async () => {
    const r = await on('get_positions');
    const data = (await restAs('/v2/positions')).data as PositionsData;
    expect(r.data).toEqual(data);
    expect(r.text).toContain('Open positions: 2 (1 long, 1 short; 1 priced, 1 unpriced position)');
    expect(r.text).toContain('(priced positions only)');
    const unpricedLine = r.text.split('\n').find((l) => l.includes('ODDCOIN-PERP')) ?? '';
    expect(unpricedLine).toContain('mark unavailable');
    expect(unpricedLine).toContain('unrealized PnL unavailable (unavailable)');
    expect(unpricedLine).toContain('daily PnL unavailable');
    expect(unpricedLine).not.toMatch(/mark 0\b/);
    // The priced row and the totals render the figures REST answers.
    for (const p of data.positions) expect(r.text).toContain(renderPosition(p));
    expect(r.text).toContain(renderTotals(data.totals));
    expect(
      (r.data.positions as { id: string; current_price: unknown }[]).find((p) => p.id === unpriced)?.current_price,
    ).toBeNull();
  });

  it('get_portfolio_summary counts unpriced positions; asset_ids filter is passed down', async () => {
    const r = await on('get_portfolio_summary', { asset_ids: 'bitcoin,ethereum' });
    expect(portfolioCalls['accounts.positions']?.at(-1)).toMatchObject({ asset_ids: ['bitcoin', 'ethereum'] });
    const all = await on('get_portfolio_summary');
    expect(all.data.unpriced_positions_count).toBe(1);
    expect(all.text).toContain('1 unpriced position');
    const { totals } = (await restAs('/v2/positions')).data as PositionsData;
    expect(all.data).toEqual(totals);
    // The weekly PnL and the other money totals as REST answers them (unavailable where null).
    expect(all.text).toBe(renderTotals(totals));
    expect(r.data.unpriced_positions_count).toBe(0);
  });

  it('get_balances renders unpriced balances as unavailable', async () => {
    const r = await on('get_balances');
    expect(r.data).toEqual((await restAs('/v2/balances')).data);
    expect(r.text).toContain('Balances: 2 (1 priced, 1 unpriced); total $50.00 (priced balances only)');
    expect(r.text).toContain('- ODD 9 (untracked, bybit/spot): unavailable, unavailable of total');
  });

  it('get_orders and get_trades parse the REST filters (limit clamped, alias merged)', async () => {
    const o = await on('get_orders', { coin_id: 'bitcoin', limit: 1000, side: 'buy' });
    expect(portfolioCalls['accounts.orders']?.[0]).toEqual({ asset_id: 'bitcoin', side: 'buy', limit: 200, offset: 0 });
    expect(o.data).toEqual((await restAs('/v1/orders?coin_id=bitcoin&limit=1000&side=buy')).data);
    expect(o.text).toContain('Orders: 1 of 1');
    expect(o.text).toContain('PnL unavailable');
    const t = await on('get_trades', { start: '2026-01-01T00:00:00Z' });
    expect(portfolioCalls['accounts.trades']?.[0]).toMatchObject({ start: Date.UTC(2026, 0, 1), limit: 50 });
    expect(t.text).toContain('fill-1');
    const bad = await on('get_trades', { start: '2026-02-01T00:00:00Z', end: '2026-01-01T00:00:00Z' });
    expect(bad.data.code).toBe('InvalidRequest');
  });

  it('position_analysis and edit_position', async () => {
    const a = await on('position_analysis', { position_id: priced });
    expect(portfolioCalls['accounts.positionAnalysis']?.[0]).toEqual({ position_id: priced, timeframe: 'd1' });
    await on('position_analysis', { position_id: priced, timeframe: 'h4', limit: 800 });
    expect(portfolioCalls['accounts.positionAnalysis']?.[1]).toEqual({
      position_id: priced,
      timeframe: 'h4',
      limit: 800,
    });
    const assessed = (await restAs(`/v2/positions/${priced}/analysis`)).data as {
      thesis_status: string;
      warnings: string[];
    };
    expect(a.data).toEqual(assessed);
    expect(a.text).toContain(`Position ${priced} (d1): thesis ${assessed.thesis_status}`);
    expect(a.text).toContain(`Warnings: ${assessed.warnings.length > 0 ? assessed.warnings.join(', ') : 'none'}`);
    expect((await on('position_analysis', { position_id: unpriced })).data.code).toBe('PositionUnpricedWithoutAsset');
    const e = await on('edit_position', { position_id: unpriced, notes: 'hedge' });
    expect(e.data.notes).toBe('hedge');
    expect(e.text).toContain('mark unavailable');
    const refused = await on('edit_position', { position_id: priced, notes: 'x', stop_loss: 1 });
    expect(refused.data.code).toBe('InvalidRequest');
    expect(String(refused.data.message)).toContain('stop_loss');
    const gone = (await restAs('/v2/positions/gone/analysis')).code;
    expect((await on('edit_position', { position_id: 'gone', notes: null })).data.code).toBe(gone);
    expect(gone).toBe('PositionNotFound');
  });
});

describe('market tools', () => {
  it('list_exchanges and get_exchange_detail', async () => {
    const l = await call('list_exchanges');
    const exchanges = (await rest('/v1/exchanges')).data as { id: string; name: string; connected: boolean }[];
    expect(l.data.exchanges).toEqual(exchanges);
    for (const e of exchanges) {
      expect(l.text).toContain(`- ${e.name} (${e.id})${e.connected ? ', connected' : ''}, 24h volume `);
    }
    const [first] = exchanges;
    if (first === undefined) throw new Error('no exchange listed');
    const detail = (await rest(`/v1/exchanges/${first.id}`)).data as { spot_pairs: number };
    expect((await call('get_exchange_detail', { exchange_id: first.id })).text).toContain(
      `Spot pairs ${detail.spot_pairs}`,
    );
    const missing = await call('get_exchange_detail', { exchange_id: 'nowhere' });
    expect(missing.data.code).toBe('UnknownExchange');
    expect((await rest('/v1/exchanges/nowhere')).code).toBe('UnknownExchange');
  });

  it('get_fear_greed answers the limit REST answers for a limit over the page size', async () => {
    // moved from @marketlens/mcp, where the fake backend clamped the limit itself
    const fg = await call('get_fear_greed', { limit: 500 });
    const page = (await rest('/v2/insights/fear_greed?limit=500')).data as { limit: number };
    expect(fg.data.limit).toBe(page.limit);
    expect(page.limit).toBeLessThanOrEqual(100);
  });
});

describe('alert tools', () => {
  it('create_price_alert defaults the kind to price; get_alerts and delete_alert', async () => {
    // The published input schema says what the tool does: kind optional, price by default.
    const listed = (await client.listTools()).tools.find((t) => t.name === 'create_price_alert');
    expect(listed?.inputSchema.required).toEqual(['asset_id', 'target']);
    expect(listed?.inputSchema.properties?.kind).toMatchObject({ default: 'price' });
    // An alert needs a channel: a webhook, registered the way a client without a browser does.
    const hook = await call('register_alert_webhook', { url: 'https://hooks.example.com/alerts' });
    expect(hook.isError).toBeFalsy();
    const live = (await h.market.ticker({ asset_id: 'bitcoin' })).last;
    const target = Math.round(live * 1.2);
    const c = await call('create_price_alert', { asset_id: 'bitcoin', target });
    expect(c.isError).toBeFalsy();
    expect(calls['alerts.create']?.[0]).toMatchObject({ asset_id: 'bitcoin', kind: 'price', target });
    expect(c.text).toContain(`price alert on Bitcoin (BTC): target ${target}, status active, live price `);
    const rsi = await call('create_price_alert', { asset_id: 'bitcoin', kind: 'RSI', target: 70, timeframe: 'h1' });
    expect(rsi.data.kind).toBe('rsi');
    const out = await call('create_price_alert', { asset_id: 'bitcoin', kind: 'rsi', target: 120 });
    expect(out.data.code).toBe('InvalidRequest');
    const list = await call('get_alerts');
    expect(list.text).toContain('Alerts: 2');
    expect(list.data.alerts).toEqual((await rest('/v1/notifications')).data);
    const id = String(c.data.id);
    expect((await call('delete_alert', { alert_id: id })).data).toEqual({ id, deleted: true });
    expect((await call('delete_alert', { alert_id: id })).data.code).toBe('NotificationNotFound');
    expect((await call('delete_alert', { alert_id: 'not-a-uuid' })).data.code).toBe('InvalidRequest');
    await call('delete_alert_webhook', { webhook_id: hook.data.id });
  });

  it('notification preferences read and change', async () => {
    expect((await call('get_notification_preferences')).text).toContain('Pilot trade notifications: on');
    const u = await call('update_notification_preferences', { pilot_trade_notification_disabled: true });
    expect(u.data.pilot_trade_notification_disabled).toBe(true);
    expect(u.text).toContain('Pilot trade notifications: off');
    expect((await rest('/v1/users/notification_preferences')).data).toEqual(u.data);
    expect((await call('update_notification_preferences', {})).data.code).toBe('InvalidRequest');
  });
});

describe('the server', () => {
  it('reports the service contract version, and protocol errors without a doubled prefix', async () => {
    expect(client.getServerVersion()?.version).toBe(MCP_PACKAGE_VERSION);
    expect(MCP_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
  });
});

/**
 * Regression: `tools/call` whose `arguments` is not an object (a string, an array, null) was answered
 * JSON-RPC -32603 (internal error) with zod's issue list as the message, because the SDK parsed the
 * request with the handler's schema before its own `tools/call` check. It is invalid params (-32602).
 * Found by the server's MCP fuzz (mcp-fuzz.test.ts).
 */
describe('tools/call with arguments that are not an object', () => {
  it.each([
    ['a string', 'bitcoin'],
    ['an array', [{ asset_id: 'bitcoin' }]],
    ['null', null],
    ['a number', 42],
  ])('%s is a JSON-RPC invalid-params error, and the backend is not called', async (_, args) => {
    const before = JSON.stringify(calls);
    const error = await client
      .callTool({ name: 'get_asset_analysis', arguments: args as unknown as Record<string, unknown> })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Invalid tools/call request');
    expect(JSON.stringify(calls)).toBe(before);
  });

  it('an object, and no arguments at all, still reach the tool', async () => {
    const ran = (id: 'accounts.positions' | 'auth.accountInfo') => calls[id]?.length ?? 0;
    const [positions, account] = [ran('accounts.positions'), ran('auth.accountInfo')];
    const ok = (await client.callTool({ name: 'get_positions', arguments: {} })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    const bare = (await client.callTool({ name: 'get_account_info' })) as CallToolResult;
    expect(bare.isError).toBeFalsy();
    expect([ran('accounts.positions'), ran('auth.accountInfo')]).toEqual([positions + 1, account + 1]);
    const bad = (await client.callTool({ name: 'get_asset_analysis', arguments: { asset_id: 7 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { code: string }).code).toBe('InvalidRequest');
  });
});

describe('webhook tools', () => {
  it('register answers the secret once; list never shows it; delete removes it', async () => {
    const reg = await call('register_alert_webhook', { url: 'https://hooks.example.com/ml', name: 'bot' });
    expect(reg.isError).toBeFalsy();
    expect(reg.data.secret).toMatch(/^whsec_/);
    expect(reg.data.signature_header).toBe('marketlens-signature');
    expect(reg.text).toContain(String(reg.data.secret));

    const list = await call('list_alert_webhooks');
    const hooks = list.data.webhooks as Record<string, unknown>[];
    expect(hooks.map((w) => w.url)).toEqual(['https://hooks.example.com/ml']);
    expect(JSON.stringify(list.data)).not.toContain('whsec_');

    const del = await call('delete_alert_webhook', { webhook_id: reg.data.id });
    expect(del.data).toEqual({ id: reg.data.id, deleted: true });
    const again = await call('delete_alert_webhook', { webhook_id: reg.data.id });
    expect(again.isError).toBe(true);
    expect(again.data.code).toBe('WebhookNotFound');
  });

  it('answers the use case code for a refused URL and InvalidRequest for bad arguments', async () => {
    expect((await call('register_alert_webhook', { url: 'https://169.254.169.254/latest' })).data.code).toBe(
      'InvalidWebhook',
    );
    expect((await call('register_alert_webhook', {})).data.code).toBe('InvalidRequest');
    expect((await call('delete_alert_webhook', { webhook_id: 'nope' })).data.code).toBe('InvalidRequest');
  });
});
