import { SIMULATED_VENUE_ID } from '@marketlens/exchanges';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../../test/support/harness.js';
import { connectedClient, toolRefusal as toolRefusalOf, toolResult } from '../../../test/support/mcp-agreement.js';
import { DEFAULT_FAVORITES } from '../../auth/users.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';

/**
 * Market data and favorites answer the same over REST and MCP: each tool's `structuredContent`
 * holds the `data` of the route serving the same request, and a refusal has the same code on both.
 */

const config = { rateLimit: { limit: 1_000_000, windowMs: 60_000 } };

let h: Harness;
let auth: { headers: Record<string, string> };
let client: Client;

beforeAll(async () => {
  h = harness(config);
  const { token, userId } = await h.signup();
  auth = { headers: { 'x-session-token': token } };
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...config },
    now: () => h.clock.now,
    market: h.market,
  };
  const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
  client = await connectedClient(backend);
});

const withAuth = (init: RequestInit): RequestInit => ({
  ...init,
  headers: { ...auth.headers, ...(init.headers as Record<string, string> | undefined) },
});

async function rest(path: string, init: RequestInit = {}): Promise<unknown> {
  const res = await h.request(path, withAuth(init));
  expect(res.status, path).toBe(200);
  return ((await res.json()) as { data: unknown }).data;
}

async function restRefusal(path: string, init: RequestInit = {}): Promise<{ status: number; code: unknown }> {
  const res = await h.request(path, withAuth(init));
  return { status: res.status, code: ((await res.json()) as { code: unknown }).code };
}

function tool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolResult(client, name, args);
}

/** The error code of a tool call that must fail. */
function toolRefusal(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolRefusalOf(client, name, args);
}

const favorite = (asset_id: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ asset_id }),
});

describe('market data over REST and MCP', () => {
  it('list_assets holds the GET /v2/assets/ data', async () => {
    const data = (await rest('/v2/assets/?asset_class=all&sort=change_24h&sort_dir=asc&limit=20')) as unknown[];
    expect(data).toHaveLength(20);
    expect(await tool('list_assets', { asset_class: 'all', sort: 'change_24h', sort_dir: 'asc', limit: 20 })).toEqual({
      assets: data,
    });
  });

  it('list_exchanges holds the GET /v1/exchanges data', async () => {
    expect(await tool('list_exchanges')).toEqual({ exchanges: await rest('/v1/exchanges') });
  });

  it('get_exchange_detail holds the GET /v1/exchanges/{id} data, and refuses an unknown id alike', async () => {
    const data = await rest(`/v1/exchanges/${SIMULATED_VENUE_ID}`);
    expect(await tool('get_exchange_detail', { exchange_id: SIMULATED_VENUE_ID })).toEqual(data);
    expect(await restRefusal('/v1/exchanges/no-such-exchange')).toEqual({ status: 404, code: 'UnknownExchange' });
    expect(await toolRefusal('get_exchange_detail', { exchange_id: 'no-such-exchange' })).toBe('UnknownExchange');
  });
});

describe('favorites over REST and MCP', () => {
  it('add_favorite_asset answers what POST /v2/assets/favorites answers, and both lists then agree', async () => {
    const added = await tool('add_favorite_asset', { asset_id: 'cardano' });
    expect(added).toEqual({ asset_id: 'cardano', is_favorite: true });
    expect(await rest('/v2/assets/favorites', favorite('cardano'))).toEqual(added);
    expect(await rest('/v2/assets/favorites', favorite('ripple'))).toEqual({ asset_id: 'ripple', is_favorite: true });
    const data = (await rest('/v2/assets/favorites')) as { id: string }[];
    // A new account starts with the default favorites.
    expect(data.map((r) => r.id).sort()).toEqual([...DEFAULT_FAVORITES, 'cardano', 'ripple'].sort());
    expect(await tool('get_favorite_assets')).toEqual({ assets: data });
    expect(await tool('get_favorite_assets', { asset_class: 'coins', sort: 'name', limit: 2 })).toEqual({
      assets: await rest('/v2/assets/favorites?asset_class=coins&sort=name&limit=2'),
    });
  });

  it('remove_favorite_asset answers what DELETE /v2/assets/favorites/{id} answers', async () => {
    const removed = await tool('remove_favorite_asset', { asset_id: 'ripple' });
    expect(removed).toEqual({ asset_id: 'ripple', is_favorite: false });
    expect(await rest('/v2/assets/favorites/ripple', { method: 'DELETE' })).toEqual(removed);
    const data = (await rest('/v2/assets/favorites')) as { id: string }[];
    expect(data.map((r) => r.id)).not.toContain('ripple');
    expect(await tool('get_favorite_assets')).toEqual({ assets: data });
  });

  it('refuses an unknown asset with the same code on both', async () => {
    expect(await restRefusal('/v2/assets/favorites', favorite('no-such-coin'))).toEqual({
      status: 400,
      code: 'UnknownAsset',
    });
    expect(await toolRefusal('add_favorite_asset', { asset_id: 'no-such-coin' })).toBe('UnknownAsset');
  });
});
