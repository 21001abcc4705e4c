import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it, vi } from 'vitest';
import { harness } from '../../../test/support/harness.js';
import { createApp, OPENAPI_PATH } from '../../app.js';
import { grantTier } from '../../auth/tiers.js';
import { type AppDeps, DEFAULT_CONFIG } from '../../platform/deps.js';
import { runPilotCycle } from '../bot.js';
import { DEFAULT_PILOT_CONFIG } from '../config.js';

const DOC_ID = 'https://marketlens.local/openapi.json';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const HOUR = 3_600_000;

/** The parts of the responses the test reads (the document validates the whole). */
interface Body {
  code?: string | number;
  data: {
    last_active_at?: string;
    open_positions: { mfe_r: number; mae_r: number; asset: { asset_class: string } }[];
    trades: unknown[];
    best_trade: { return_on_margin_pct: number };
    curve: { cumulative_return_on_margin_pct: number }[];
    plans: number;
    counts: Record<string, number>;
    resolved: number;
  };
}
const read = async (res: Response): Promise<Body> => (await res.json()) as Body;

/** An app on the harness's storage and simulated venue, with the pilot on three coins and an eligibility rule. */
async function setup() {
  const h = harness();
  const eligible = await h.signup();
  const other = await h.signup();
  const onPilotTrade = vi.fn();
  const deps: AppDeps = {
    storage: h.storage,
    // the expected-R floor lowered: the simulated venue's calls rarely clear it (issue 40)
    config: {
      ...DEFAULT_CONFIG,
      signalMinExpectedR: -100,
      pilot: { ...DEFAULT_PILOT_CONFIG, universe: ['bitcoin', 'ethereum', 'solana'] },
    },
    now: () => h.clock.now,
    market: h.market,
    isPilotEligible: async (userId) => userId === eligible.userId,
    pilot: { onPilotTrade },
  };
  const app = createApp(deps, { logError: () => {} });
  const get = (path: string, token: string) =>
    Promise.resolve(
      app.request(
        path,
        { headers: { 'x-session-token': token } },
        { incoming: { socket: { remoteAddress: '198.51.100.9' } } },
      ),
    );
  const doc = (await (await app.request(OPENAPI_PATH)).json()) as Record<string, unknown>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const validate = (path: string, body: unknown) => {
    const v = ajv.compile({
      $ref: `${DOC_ID}#/${pointer('paths', path, 'get', 'responses', '200', 'content', 'application/json', 'schema')}`,
    });
    expect(v(body), ajv.errorsText(v.errors)).toBe(true);
  };
  const validateError = (body: unknown) => {
    const v = ajv.compile({ $ref: `${DOC_ID}#/${pointer('components', 'schemas', 'ErrorResponse')}` });
    expect(v(body), ajv.errorsText(v.errors)).toBe(true);
  };
  return { h, deps, eligible, other, onPilotTrade, get, validate, validateError };
}

describe('pilot on the simulated venue (injected clock)', () => {
  it('publishes, enters, opens, pushes once per trade, closes 70/30; spectate views match the document', async () => {
    const { h, deps, eligible, other, onPilotTrade, get, validate, validateError } = await setup();

    // Ineligible caller: 403 with a stable code; API keys never reach it.
    const refused = await get('/pilot/spectate', other.token);
    expect(refused.status).toBe(403);
    const body = await read(refused);
    expect(body.code).toBe('PilotNotEligible');
    validateError(body);

    const before = await get('/pilot/spectate', eligible.token);
    expect(before.status).toBe(200);
    const first = await read(before);
    validate('/pilot/spectate', first);
    expect('last_active_at' in first.data).toBe(false);

    // Hour by hour until the bot has opened and closed trades.
    let opened = 0;
    let closedTrades = 0;
    let sawOpen = false;
    for (let hour = 0; hour < 400 && closedTrades < 3; hour++) {
      h.clock.now += HOUR;
      const run = await runPilotCycle(deps);
      opened += run.opened.filter((t) => t.status === 'open').length;
      closedTrades = (await h.storage.pilot.closedAll()).length;
      if (!sawOpen && (await h.storage.pilot.openTrades()).length > 0) {
        sawOpen = true;
        const res = await get('/pilot/spectate', eligible.token);
        const live = await read(res);
        validate('/pilot/spectate', live);
        const pos = live.data.open_positions[0];
        expect(pos.mfe_r).toBeGreaterThanOrEqual(0);
        expect(pos.mae_r).toBeGreaterThanOrEqual(0);
        expect(pos.asset.asset_class).toBe('coins');
        expect(live.data.last_active_at).toBe(new Date(h.clock.now).toISOString());
      }
    }
    expect(sawOpen).toBe(true);
    expect(closedTrades).toBeGreaterThanOrEqual(3);
    expect(onPilotTrade).toHaveBeenCalledTimes(opened);
    expect(new Set(onPilotTrade.mock.calls.map((c) => c[0].id)).size).toBe(opened);

    const closed = await h.storage.pilot.closedAll();
    for (const t of closed) {
      const plan = await h.storage.publishedPlans.byId(t.plan_id);
      if (plan === null) throw new Error('plan missing');
      // No look-ahead: the entry is in a candle that opened after the publication.
      expect(t.opened_at).toBeGreaterThanOrEqual(plan.published_at);
      expect(t.realized_r).toBeCloseTo(plan.realized_r ?? Number.NaN, 12);
      expect(t.pnl_usd).toBeCloseTo((plan.realized_r ?? 0) * t.risk_usd, 6);
      expect(t.legs.map((l) => l.size_pct)).toEqual(t.take_profits.length === 2 ? [70, 30] : [100]);
    }

    const res = await get('/pilot/spectate/track-record', eligible.token);
    expect(res.status).toBe(200);
    const record = await read(res);
    validate('/pilot/spectate/track-record', record);
    expect(record.data.trades.length).toBe(closed.length);
    expect(record.data.best_trade.return_on_margin_pct).toBe(
      Math.max(...closed.map((t) => t.return_on_margin_pct ?? 0)),
    );
    expect(record.data.curve.at(-1)?.cumulative_return_on_margin_pct).toBeCloseTo(
      closed.reduce((s, t) => s + (t.return_on_margin_pct ?? 0), 0),
      9,
    );

    const bad = await get('/pilot/spectate/track-record?before_trade=0', eligible.token);
    expect(bad.status).toBe(400);
    validateError(await read(bad));

    // The service's track record of the same plans (session or API key; d1 free, h1 needs Pro).
    const key = await h.apiKey(eligible.token);
    const app = createApp(deps, { logError: () => {} });
    const tr = (url: string) =>
      Promise.resolve(
        app.request(
          url,
          { headers: { 'x-api-key': key } },
          { incoming: { socket: { remoteAddress: '198.51.100.10' } } },
        ),
      );
    const traded = closed[0].asset_id;
    expect((await tr(`/v2/analysis/${traded}/track-record?timeframe=h1`)).status).toBe(402);
    await grantTier(h.storage, eligible.userId, 'pro', 'admin', 30, h.clock.now);
    const trRes = await tr(`/v2/analysis/${traded}/track-record?timeframe=h1`);
    expect(trRes.status).toBe(200);
    const trBody = await read(trRes);
    validate('/v2/analysis/{asset_id}/track-record', trBody);
    expect(trBody.data.plans).toBeGreaterThan(0);
    const counted = Object.values(trBody.data.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(counted).toBe(trBody.data.plans);
    expect(trBody.data.resolved).toBeGreaterThan(0);
    expect((await tr('/v2/analysis/no-such-asset/track-record')).status).toBe(400);
  });
});
