import { ERROR_CODES } from '@marketlens/contract';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { connectedClient, toolRefusal as toolRefusalOf, toolResult } from '../../../test/support/mcp-agreement.js';
import { grantTier } from '../../auth/tiers.js';
import { universeOf } from '../../market/market.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';

/**
 * The analysis answers the same over REST and MCP: each tool's `structuredContent` equals the `data`
 * of the route serving the same request, a gate refuses with the same code on both, and an analysis
 * served over MCP records its plan as published, as REST does.
 */

// The simulated venue's calls rarely clear the expected-R gate (issue 40); these tests are about
// recording what is published, so the operator's floor is lowered until the base-rate gate alone holds.
const config = { rateLimit: { limit: 1_000_000, windowMs: 60_000 }, signalMinExpectedR: -100 };

let h: Harness;
let free: { headers: Record<string, string> };
let pro: { headers: Record<string, string> };
let freeClient: Client;
let proClient: Client;

/** An MCP client over the backend of `userId` at `tier`. */
async function mcpClient(userId: string, tier: 'free' | 'pro'): Promise<Client> {
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
  };
  const backend = mcpBackend(deps, { kind: 'session', user, tier, tier_expires_at: null, api_key_id: null });
  return connectedClient(backend);
}

beforeAll(async () => {
  h = harness(config);
  const f = await h.signup();
  const p = await h.signup();
  await grantTier(h.storage, p.userId, 'pro', 'admin', 30, h.clock.now);
  free = { headers: { 'x-session-token': f.token } };
  pro = { headers: { 'x-session-token': p.token } };
  freeClient = await mcpClient(f.userId, 'free');
  proClient = await mcpClient(p.userId, 'pro');
});

async function rest(path: string, init = free): Promise<unknown> {
  const res = await h.request(path, init);
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

async function restRefusal(path: string, init = free): Promise<{ status: number; code: unknown }> {
  const res = await h.request(path, init);
  return { status: res.status, code: ((await res.json()) as { code: unknown }).code };
}

function tool(name: string, args: Record<string, unknown> = {}, client = freeClient): Promise<unknown> {
  return toolResult(client, name, args);
}

/** The error code of a tool call that must fail. */
function toolRefusal(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolRefusalOf(freeClient, name, args);
}

/** Coins of the simulated venue, stablecoins left out, in universe order. */
function coins(): string[] {
  return universeOf(h.market)
    .assets.filter((a) => a.asset_class === 'coins' && !a.is_stablecoin)
    .map((a) => a.id);
}

/**
 * Serves the h4 analysis of each asset through `serve` (as Pro) and checks that a plan with a trade was
 * recorded as published (source `analysis`, on the candle it was computed on) and a plan without
 * one was not; returns how many were recorded.
 */
async function recordsServedPlans(
  assetIds: readonly string[],
  serve: (assetId: string) => Promise<unknown>,
): Promise<number> {
  let recorded = 0;
  for (const assetId of assetIds) {
    expect(await h.storage.publishedPlans.list({ asset_id: assetId, timeframe: 'h4', limit: 10 })).toEqual([]);
    const { zone } = (await serve(assetId)) as { zone: { direction: string | null; published_time: string } };
    const rows = await h.storage.publishedPlans.list({ asset_id: assetId, timeframe: 'h4', limit: 10 });
    if (zone.direction === null) {
      expect(rows).toEqual([]);
      continue;
    }
    expect(rows.map((r) => [r.source, r.side, new Date(r.candle_time).toISOString()])).toEqual([
      ['analysis', zone.direction, zone.published_time],
    ]);
    recorded++;
  }
  return recorded;
}

describe('analysis over REST and MCP', () => {
  it('get_asset_analysis holds the GET /v2/analysis/{asset_id} data', async () => {
    const data = await rest('/v2/analysis/bitcoin?timeframe=h4', pro);
    expect(await tool('get_asset_analysis', { asset_id: 'bitcoin', timeframe: 'h4' }, proClient)).toEqual(data);
    expect(await tool('get_asset_analysis', { asset_id: 'ethereum' })).toEqual(await rest('/v2/analysis/ethereum'));
  });

  it('get_asset_signal holds the GET /v2/analysis/{asset_id}/signal data', async () => {
    const data = await rest('/v2/analysis/bitcoin/signal');
    expect(await tool('get_asset_signal', { asset_id: 'bitcoin' })).toEqual(data);
  });

  it('get_asset_overview holds the GET /v2/analysis/{asset_id}/overview data in the same language', async () => {
    const data = await rest('/v2/analysis/bitcoin/overview', { headers: { ...free.headers, 'x-locale': 'de' } });
    expect(data).toMatchObject({ locale: 'de' });
    expect(await tool('get_asset_overview', { asset_id: 'bitcoin', locale: 'de' })).toEqual(data);
  });

  it('get_asset_markets holds the GET /v2/analysis/{asset_id}/markets data', async () => {
    const data = await rest('/v2/analysis/bitcoin/markets?market_type=derivatives');
    expect(await tool('get_asset_markets', { asset_id: 'bitcoin', market_type: 'derivatives' })).toEqual(data);
  });

  it('refuses a free caller h4 and a Pro depth with the same code on both, and an unknown asset alike', async () => {
    for (const [path, name, args] of [
      ['/v2/analysis/bitcoin?timeframe=h4', 'get_asset_analysis', { asset_id: 'bitcoin', timeframe: 'h4' }],
      ['/v2/analysis/bitcoin/signal?timeframe=h4', 'get_asset_signal', { asset_id: 'bitcoin', timeframe: 'h4' }],
      ['/v2/analysis/bitcoin/overview?timeframe=h4', 'get_asset_overview', { asset_id: 'bitcoin', timeframe: 'h4' }],
    ] as const) {
      expect(await restRefusal(path)).toEqual({ status: 402, code: ERROR_CODES.AnalysisTimeframeRestricted.code });
      expect(await toolRefusal(name, args)).toBe(ERROR_CODES.AnalysisTimeframeRestricted.code);
    }
    const depth = ERROR_CODES.AnalysisHistoryDepthRestricted.code;
    expect(await restRefusal('/v2/analysis/bitcoin?limit=1000')).toEqual({ status: 402, code: depth });
    expect(await toolRefusal('get_asset_analysis', { asset_id: 'bitcoin', limit: 1000 })).toBe(depth);
    const unknown = await restRefusal('/v2/analysis/no-such-coin/markets');
    expect(unknown).toEqual({ status: 400, code: 'UnknownAsset' });
    expect(await toolRefusal('get_asset_markets', { asset_id: 'no-such-coin' })).toBe('UnknownAsset');
  });

  it('records the plan of an analysis served over MCP as published, as REST does', async () => {
    // Assets no test above asked for, so each analysis is computed and offered to storage here.
    const viaRest = (id: string) => rest(`/v2/analysis/${id}?timeframe=h4`, pro);
    const viaMcp = (id: string) => tool('get_asset_analysis', { asset_id: id, timeframe: 'h4' }, proClient);
    // Coins in turn over REST until one records a plan, then over MCP until one does (ten each
    // before session 14; since issue 38's plans are the default, a few coins in fifty publish an h4
    // plan at this clock even with the expected-R floor lowered).
    let overRest = 0;
    let overMcp = 0;
    for (const id of coins().slice(2)) {
      if (overRest === 0) overRest += await recordsServedPlans([id], viaRest);
      else if (overMcp === 0) overMcp += await recordsServedPlans([id], viaMcp);
    }
    expect(overRest).toBeGreaterThan(0);
    expect(overMcp).toBeGreaterThan(0);
  });

  it('get_track_record holds the GET /v2/track-record data, the plans served above included', async () => {
    const data = (await rest('/v2/track-record')) as { total: { plans: number } };
    expect(data.total.plans).toBeGreaterThan(0);
    expect(await tool('get_track_record')).toEqual(data);
    expect(await tool('get_track_record', { timeframe: 'h4', asset_class: 'coins' })).toEqual(
      await rest('/v2/track-record?timeframe=h4&asset_class=coins'),
    );
  });
});

describe('lists over a class over REST and MCP', () => {
  it('get_trading_signals holds the GET /v2/assets/signals data, the free list restricted alike', async () => {
    const path = '/v2/assets/signals?timeframe=d1&asset_class=coins&limit=50';
    const freeList = (await rest(path)) as { restricted: boolean };
    expect(freeList.restricted).toBe(true);
    expect(await tool('get_trading_signals', { timeframe: 'd1', asset_class: 'coins', limit: 50 })).toEqual(freeList);
    const proList = (await rest(path, pro)) as { restricted: boolean };
    expect(proList.restricted).toBe(false);
    expect(await tool('get_trading_signals', { timeframe: 'd1', asset_class: 'coins', limit: 50 }, proClient)).toEqual(
      proList,
    );
  });

  it('get_screener holds the GET /v2/assets/screener data', async () => {
    const data = await rest('/v2/assets/screener?asset_class=coins');
    expect(await tool('get_screener', { asset_class: 'coins' })).toEqual(data);
  });

  it('get_fear_greed holds the GET /v2/insights/fear_greed data, filters and sort included', async () => {
    const data = await rest('/v2/insights/fear_greed?exclude_stables=false&sort=volume&sort_dir=asc&limit=5');
    expect(await tool('get_fear_greed', { exclude_stables: false, sort: 'volume', sort_dir: 'asc', limit: 5 })).toEqual(
      data,
    );
    expect(await tool('get_fear_greed')).toEqual(await rest('/v2/insights/fear_greed'));
  });
});
