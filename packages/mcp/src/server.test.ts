import { ToolErrorContentSchema } from '@marketlens/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from './backend.js';
import { CATALOG } from './catalog.js';
import { manifest } from './manifest.js';
import { createMcpServer } from './server.js';
import { fakeBackend } from './testing/fake-backend.js';

const open: Client[] = [];

async function connect(backend: Backend): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(backend).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

/** Calls a tool, and checks its structured content against the tool's output schema (or the error shape). */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const tool = CATALOG.find((t) => t.name === name);
  if (tool !== undefined) {
    const schema = r.isError ? ToolErrorContentSchema : tool.output;
    const checked = schema.safeParse(r.structuredContent);
    expect(checked.success, `${name}: ${checked.error?.message}`).toBe(true);
  }
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, unknown> };
}

describe('catalog', () => {
  it('describes the server and its tools in the manifest', () => {
    const m = manifest('https://example.test/');
    expect(m.endpoint).toBe('https://example.test/mcp');
    expect(m.authorization.protected_resource_metadata).toBe(
      'https://example.test/.well-known/oauth-protected-resource/mcp',
    );
    expect(m.tools.map((t) => t.name)).toEqual(CATALOG.map((t) => t.name));
    expect(
      manifest('https://example.test', {
        runs: (id) => id.startsWith('analysis.') || id.startsWith('market.'),
      }).tools.every((t) => !t.name.includes('position')),
    ).toBe(true);
  });
});

describe('market tools', () => {
  it('get_asset_analysis renders zones, plan, signal and Fear & Greed and returns the REST shape', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const r = await call(client, 'get_asset_analysis', { asset_id: 'bitcoin' });
    expect(r.isError).toBeFalsy();
    expect(calls['analysis.get']?.[0]).toEqual({ asset_id: 'bitcoin', timeframe: 'd1', limit: 500 });
    expect(r.text).toContain(
      'Signal: BUY, 31% chance that its plan reaches target 1 before the stop (base rate 24%), break-even 25%, expected 0.24R after costs (0.08 to 0.4, 90% interval)',
    );
    expect(r.text).toContain('Fear & Greed: 64 (greed)');
    expect(r.text).toContain('entry zone 100 - 102');
    expect(r.text).toContain('TP1 115 (70% of size, 2.8R, 2.64R after costs)');
    expect(r.text).toContain('Live: 110.5');
    expect(r.text).toContain('nearest resistance: none');
    expect((r.data.zone as { take_profits: unknown[] }).take_profits).toHaveLength(2);
  });

  it('get_trading_signals takes 1h and 15m and passes the REST spelling', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const r = await call(client, 'get_trading_signals', { timeframe: '15m' });
    expect(calls['analysis.signals']?.[0]).toEqual({ timeframe: 'm15', asset_class: 'coins', limit: 100 });
    expect(r.text).toContain('Bitcoin (BTC): BUY 72%');
    expect(r.text).toContain('free list');
    await call(client, 'get_trading_signals', { timeframe: '1h' });
    expect((calls['analysis.signals']?.[1] as { timeframe?: string } | undefined)?.timeframe).toBe('h1');
    const bad = await call(client, 'get_trading_signals', { timeframe: '4h' });
    expect(bad.data.code).toBe('InvalidRequest');
  });
  it('get_asset_signal, get_asset_overview, get_asset_markets, get_screener, get_fear_greed, list_assets', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const hold = (await call(client, 'get_asset_signal', { asset_id: 'bitcoin' })).text;
    // a hold says why there is no trade, never a confidence in holding
    expect(hold).toContain('Signal: HOLD, no trade: the factors do not point clearly to one side');
    expect(hold).not.toMatch(/confiden/i);
    const o = await call(client, 'get_asset_overview', { asset_id: 'bitcoin', locale: 'de' });
    expect(o.text).toContain('TEST narrative.');
    expect((calls['analysis.overview']?.[0] as { locale?: string } | undefined)?.locale).toBe('de');
    const m = await call(client, 'get_asset_markets', { asset_id: 'bitcoin', market_type: 'derivatives' });
    expect(m.text).toContain(
      'BTC/USDT:USDT (derivatives): last 110.5, 24h unavailable, volume unavailable, funding +0.01%',
    );
    expect(calls['analysis.markets']?.[0]).toEqual({ asset_id: 'bitcoin', market_type: 'derivatives' });
    expect((await call(client, 'get_screener', { asset_class: 'all' })).text).toContain(
      'Bitcoin (BTC) up through zone 105',
    );
    const fg = await call(client, 'get_fear_greed', { limit: 500 });
    expect(fg.text).toContain('Bitcoin (BTC): 64 (greed)');
    expect(fg.data.limit).toBe(100);
    const assets = await call(client, 'list_assets', { asset_class: 'coins', limit: 5 });
    expect(assets.data.assets).toHaveLength(1);
    expect(assets.text).toContain('Bitcoin (BTC, bitcoin): price 110, 24h +1.00%');
  });
});

describe('pilot tools', () => {
  it('get_pilot_spectate and get_pilot_spectate_history', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const s = await call(client, 'get_pilot_spectate');
    expect(s.text).toContain('last active unknown');
    expect(s.text).toContain('Bitcoin (BTC) long from 100: MFE 0.5R, MAE unavailable');
    const h = await call(client, 'get_pilot_spectate_history');
    expect(h.text).toContain('older trades exist');
    expect(h.text).toContain('asset outside the coin universe short: entry 100, exit 95');
    await call(client, 'get_pilot_spectate_history', { before_trade: 5 });
    expect(calls['pilot.trackRecord']?.[1]).toEqual({ before_trade: 5 });
  });
});
