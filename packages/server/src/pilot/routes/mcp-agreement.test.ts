import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { connectedClient, toolRefusal as toolRefusalOf, toolResult } from '../../../test/support/mcp-agreement.js';
import { createApp } from '../../app.js';
import { mcpBackend } from '../../mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';
import type { PilotRepository, PilotTradeRecord } from '../../storage/plans-types.js';
import { DEFAULT_PILOT_CONFIG } from '../config.js';

/**
 * The pilot answers the same over REST and MCP: `get_pilot_spectate` and `get_pilot_spectate_history`
 * hold the `data` of `/pilot/spectate` and `/pilot/spectate/track-record`, over a pilot with one open
 * and two closed trades, and refuse an ineligible user with the same code.
 */

const HOUR = 3_600_000;

function trade(index: number, opened: number, closed: boolean): PilotTradeRecord {
  return {
    id: `t${index}`,
    trade_index: index,
    plan_id: `p${index}`,
    asset_id: index === 2 ? 'no-such-coin' : 'bitcoin',
    timeframe: 'h1',
    pair: 'BTCUSDT',
    side: index % 2 === 0 ? 'short' : 'long',
    opened_at: opened,
    entry_price: 100_000,
    stop_loss: index % 2 === 0 ? 101_000 : 99_000,
    take_profits: [
      { price: index % 2 === 0 ? 98_000 : 102_000, size_pct: 70 },
      { price: index % 2 === 0 ? 97_000 : 103_000, size_pct: 30 },
    ],
    quantity: 0.1,
    notional_usd: 10_000,
    margin_usd: 2_000,
    leverage: 5,
    risk_usd: 100,
    status: closed ? 'closed' : 'open',
    outcome: closed ? 'tp_hit' : 'entered',
    closed_at: closed ? opened + 5 * HOUR : null,
    exit_price: closed ? 102_300 : null,
    realized_r: closed ? 2.3 : null,
    pnl_usd: closed ? 228 : null,
    return_on_margin_pct: closed ? 11.4 : null,
    legs: [
      {
        target: 1,
        size_pct: 70,
        exit: closed ? 'target' : null,
        exit_index: null,
        exit_time: closed ? opened + 2 * HOUR : null,
        exit_price: closed ? 102_000 : null,
        r: closed ? 2 : null,
        return_pct: closed ? 2 : null,
      },
    ],
  };
}

let rest: (path: string) => Promise<unknown>;
let restRefusal: (path: string) => Promise<{ status: number; code: unknown }>;
let client: Client;
/** Whether the user may spectate (the injected eligibility rule answers it). */
let eligible = true;

beforeAll(async () => {
  const h = harness();
  const { token, userId } = await h.signup();
  const now = h.clock.now;
  const closed = [trade(1, now - 48 * HOUR, true), trade(2, now - 30 * HOUR, true)];
  const open = [trade(3, now - 6 * HOUR, false)];
  const pilot = {
    state: async () => ({ started_at: now - 72 * HOUR, last_active_at: now - HOUR }),
    openTrades: async () => open,
    closedAll: async () => closed,
    closedPage: async () => closed,
  } as Partial<PilotRepository> as PilotRepository;
  const deps: AppDeps = {
    storage: Object.assign(Object.create(h.storage) as typeof h.storage, { pilot }),
    config: { ...DEFAULT_CONFIG, pilot: { ...DEFAULT_PILOT_CONFIG, universe: ['bitcoin', 'ethereum'] } },
    now: () => h.clock.now,
    market: h.market,
    isPilotEligible: async () => eligible,
  };
  const app = createApp(deps, { logError: () => {} });
  const get = (path: string) =>
    Promise.resolve(
      app.request(
        path,
        { headers: { 'x-session-token': token } },
        { incoming: { socket: { remoteAddress: '198.51.100.9' } } },
      ),
    );
  rest = async (path) => {
    const res = await get(path);
    expect(res.status, path).toBe(200);
    return ((await res.json()) as { data: unknown }).data;
  };
  restRefusal = async (path) => {
    const res = await get(path);
    return { status: res.status, code: ((await res.json()) as { code: unknown }).code };
  };
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const backend = mcpBackend(deps, { kind: 'session', user, tier: 'free', tier_expires_at: null, api_key_id: null });
  client = await connectedClient(backend);
});

function tool(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolResult(client, name, args);
}

/** The error code of a tool call that must fail. */
function toolRefusal(name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  return toolRefusalOf(client, name, args);
}

describe('the pilot over REST and MCP', () => {
  it('get_pilot_spectate holds the /pilot/spectate data, open positions included', async () => {
    const data = (await rest('/pilot/spectate')) as { open_positions: unknown[] };
    expect(data.open_positions).toHaveLength(1);
    expect(await tool('get_pilot_spectate')).toEqual(data);
  });

  it('get_pilot_spectate_history holds the /pilot/spectate/track-record data, trades included', async () => {
    const data = (await rest('/pilot/spectate/track-record')) as { trades: { asset?: unknown }[] };
    expect(data.trades).toHaveLength(2);
    // A trade on an asset outside the coin universe carries no asset block.
    expect(data.trades.map((t) => 'asset' in t)).toEqual([true, false]);
    expect(await tool('get_pilot_spectate_history')).toEqual(data);
  });

  it('get_pilot_spectate_history with before_trade holds the data of the same page over REST', async () => {
    const data = (await rest('/pilot/spectate/track-record?before_trade=2')) as {
      trades: { trade_index: number }[];
    };
    expect(data.trades.map((t) => t.trade_index)).toEqual([1]);
    expect(await tool('get_pilot_spectate_history', { before_trade: 2 })).toEqual(data);
  });

  it('refuses an ineligible user with 403 PilotNotEligible on REST and the same code on MCP', async () => {
    eligible = false;
    try {
      for (const [path, name] of [
        ['/pilot/spectate', 'get_pilot_spectate'],
        ['/pilot/spectate/track-record', 'get_pilot_spectate_history'],
      ] as const) {
        expect(await restRefusal(path)).toEqual({ status: 403, code: 'PilotNotEligible' });
        expect(await toolRefusal(name)).toBe('PilotNotEligible');
      }
    } finally {
      eligible = true;
    }
  });
});
