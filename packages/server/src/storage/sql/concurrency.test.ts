/**
 * Rules that count rows before writing one stay exact under concurrent requests: on PostgreSQL the
 * calls run on separate pooled connections at once, as requests of several instances would.
 */
import { expect, it } from 'vitest';
import { describeEngines } from '../../../test/support/storage/engines.js';
import type { AlertRecord } from '../alerts-types.js';
import type { ApiKeyRecord } from '../types.js';

const T = Date.UTC(2026, 0, 1);
const CALLS = 50;

const key = (i: number): ApiKeyRecord => ({
  id: `k${i}`,
  user_id: 'u1',
  name: null,
  prefix: 'mlk_',
  key_hash: `h${i}`,
  created_at: T,
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
});

const alert = (i: number): AlertRecord => ({
  id: `a${i}`,
  user_id: 'u1',
  asset_id: 'bitcoin',
  kind: 'price',
  timeframe: null,
  evaluates_as: null,
  target: 1,
  direction: 'above',
  zone_low: null,
  zone_high: null,
  reference: null,
  status: 'active',
  created_at: T,
  updated_at: T,
  armed_at: T,
  expires_at: T + 1000,
  triggered_at: null,
  trigger_value: null,
  trigger_candle: null,
  last_evaluated_open: null,
});

const times = <T>(n: number, f: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => f(i)));

describeEngines('concurrent writers', (engine) => {
  const open = async () => {
    const s = await engine.database().open({ postgres: { max: 20 } });
    await s.users.create({ id: 'u1', email: 'a@x.io', password_hash: 'h', tier: 'free', created_at: T }, []);
    await s.users.create({ id: 'u2', email: 'b@x.io', password_hash: 'h', tier: 'free', created_at: T }, []);
    return s;
  };

  it(`${CALLS} API-key creations at once with a cap of 7: exactly 7 succeed`, async () => {
    const s = await open();
    const results = await times(CALLS, (i) => s.apiKeys.createIfBelow(key(i), 7, T));
    expect(results.filter(Boolean)).toHaveLength(7);
    expect(await s.apiKeys.listByUser('u1')).toHaveLength(7);
  });

  it('an allowance of 37 consumed by 120 calls at once: counts 1..37 once each, then null', async () => {
    const s = await open();
    const results = await times(120, () => s.apiUsage.consume('u1', '2026-01-01', 37));
    const counted = results.filter((r): r is number => r !== null).sort((a, b) => a - b);
    expect(counted).toEqual(Array.from({ length: 37 }, (_, i) => i + 1));
    expect(await s.apiUsage.used('u1', '2026-01-01')).toBe(37);
  });

  it(`${CALLS} alerts at once with a cap of 5: exactly 5 active`, async () => {
    const s = await open();
    const results = await times(CALLS, (i) => s.alerts.createIfBelow(alert(i), 5));
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await s.alerts.countActive('u1')).toBe(5);
  });

  it('webhooks registered at once stay within the cap', async () => {
    const s = await open();
    const results = await times(20, (i) =>
      s.alertWebhooks.register(
        {
          id: `w${i}`,
          user_id: 'u1',
          url: `https://hooks.test/${i}`,
          name: null,
          secret: 's',
          created_at: T,
          updated_at: T,
          active: true,
          deactivated_at: null,
          deactivated_reason: null,
        },
        3,
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
    expect(await s.alertWebhooks.listByUser('u1')).toHaveLength(3);
  });

  it('one affiliate grant when many are asked for at once', async () => {
    const s = await open();
    const grants = await times(20, (i) =>
      s.affiliateGrants.grantIfAbsent(
        { id: `g${i}`, user_id: 'u1', tier: 'elite', source: 'affiliate', granted_at: T, expires_at: T + 1000 },
        T,
      ),
    );
    expect(new Set(grants.map((g) => g.id)).size).toBe(1);
    expect(await s.grants.active('u1', T)).toHaveLength(1);
  });

  it('mails recorded at once respect the per-day count', async () => {
    const s = await open();
    const results = await times(20, (i) =>
      s.accountMails.recordIfBelow(
        {
          id: `m${i}`,
          user_id: 'u1',
          kind: 'signup_attempt',
          token_hash: null,
          email: 'a@x.io',
          created_at: T + i,
          expires_at: T + 86_400_000,
        },
        { gapMs: 0, perDay: 4 },
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(4);
  });

  it('pilot trades decided at once are numbered 1..n without a gap or a repeat', async () => {
    const s = await open();
    const n = 12;
    for (let i = 0; i < n; i++) {
      await s.publishedPlans.record({
        id: `p${i}`,
        asset_id: 'bitcoin',
        timeframe: 'h1',
        candle_time: T + i,
        published_at: T + i,
        venue: 'binance',
        pair: 'BTC/USDT',
        market_type: 'spot',
        side: 'long',
        confidence: 0.5,
        confidence_low: null,
        confidence_high: null,
        source: 'publisher',
        plan: {} as never,
        outcome: 'entered',
        entered_at: T + i,
        fill_price: 1,
        closed_at: null,
        targets_hit: 0,
        realized_r: null,
        return_pct: null,
        legs: [],
        reason: null,
        updated_at: T,
      });
    }
    const trades = await times(n, (i) =>
      s.pilot.decide(
        `p${i}`,
        {
          taken: {
            id: `t${i}`,
            plan_id: `p${i}`,
            asset_id: 'bitcoin',
            timeframe: 'h1',
            pair: 'BTC/USDT',
            side: 'long',
            opened_at: T,
            entry_price: 1,
            stop_loss: 0.9,
            take_profits: [],
            quantity: 1,
            notional_usd: 1,
            margin_usd: 1,
            leverage: 1,
            risk_usd: 0.1,
            status: 'open',
            outcome: 'entered',
            closed_at: null,
            exit_price: null,
            realized_r: null,
            pnl_usd: null,
            return_on_margin_pct: null,
            legs: [],
          },
        },
        T,
      ),
    );
    expect(trades.map((t) => t?.trade_index).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    );
  });

  it('a UID claimed by two users at once is granted once', async () => {
    const s = await open();
    await s.promotions.create({
      id: 'p1',
      connection_id: 'bybit',
      partner_name: 'Bybit',
      title: 't',
      description: 'd',
      promotional_value: 'v',
      bonus_description: '',
      referral_url: 'https://example.com',
      icon: 'data:,',
      theme: { primary_color: '#000000', background_color: '#ffffff', text_color: '#111111' },
      steps: [],
      validations: [],
      created_at: T,
    });
    for (const u of ['u1', 'u2']) await s.promotions.invite({ promotion_id: 'p1', user_id: u, invited_at: T });
    const outcomes = await Promise.all(
      ['u1', 'u2'].map((u) =>
        s.promotions.claim(
          {
            id: `c-${u}`,
            promotion_id: 'p1',
            connection_id: 'bybit',
            user_id: u,
            uid: '42',
            claimed_at: T,
            grant_id: `g-${u}`,
          },
          { id: `g-${u}`, user_id: u, tier: 'pro', source: 'promotion', granted_at: T, expires_at: T + 1000 },
        ),
      ),
    );
    expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, reason: 'uid_used' }]);
  });
});
