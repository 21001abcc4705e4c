/**
 * TEST FIXTURES ONLY: a `Backend` over made-up data for the catalog's unit tests. Nothing here is
 * market data; prices are round numbers chosen to make rendered text easy to check.
 */

import type { NotificationPreferences } from '@marketlens/contract';
import type {
  AccountBackend,
  Alert,
  AlertBackend,
  AnalysisRequest,
  AssetRef,
  Backend,
  MarketBackend,
  PilotBackend,
  PortfolioBackend,
  Position,
  PositionsData,
} from '../backend.js';
import { ToolError } from '../errors.js';

export const TEST_BTC: AssetRef = { id: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', icon: null, asset_class: 'coins' };

const served = (r: AnalysisRequest) => ({
  asset: TEST_BTC,
  timeframe: r.timeframe,
  market_type: 'spot' as const,
  pair: 'BTC/USDT',
  venue: 'test-venue',
});

/** A priced long and an unpriced short (no mark: every mark-dependent figure null). */
export const TEST_POSITIONS: Position[] = [
  {
    id: 'pos-priced',
    connection_id: 'test-exchange',
    asset: TEST_BTC,
    pair: 'BTC/USDT:USDT',
    side: 'long',
    size: 2,
    entry_price: 100,
    leverage: 5,
    liquidation_price: 80,
    current_price: 110,
    market_value: 220,
    unrealized_pnl: 20,
    unrealized_pnl_usd: 20,
    daily_pnl: 4,
    stop_loss: 90,
    take_profit: null,
    notes: '',
  },
  {
    id: 'pos-unpriced',
    connection_id: 'test-exchange',
    asset: null,
    pair: 'ODDCOIN-PERP',
    side: 'short',
    size: 7,
    entry_price: 3,
    leverage: null,
    liquidation_price: null,
    current_price: null,
    market_value: null,
    unrealized_pnl: null,
    unrealized_pnl_usd: null,
    daily_pnl: null,
    stop_loss: null,
    take_profit: null,
    notes: 'watch',
  },
];

export const TEST_POSITIONS_DATA: PositionsData = {
  positions: TEST_POSITIONS,
  totals: {
    open_positions_count: 2,
    open_long_positions_count: 1,
    open_short_positions_count: 1,
    priced_positions_count: 1,
    unpriced_positions_count: 1,
    total_market_value_usd: 220,
    total_unrealized_pnl_usd: 20,
    total_daily_pnl_usd: 4,
    total_weekly_pnl_usd: null,
    total_margin_usd: 44,
  },
};

/** Calls the fake saw, for assertions on what the tools pass down. */
export interface FakeCalls {
  [method: string]: unknown[];
}

/** A backend of test fixtures; `calls` records each method's argument. */
export function fakeBackend(): { backend: Backend; calls: FakeCalls; favorites: Set<string> } {
  const calls: FakeCalls = {};
  const record = (name: string, arg: unknown) => {
    calls[name] = [...(calls[name] ?? []), arg];
  };
  const favorites = new Set(['bitcoin']);
  const alerts: Alert[] = [];
  let prefs: NotificationPreferences = {
    pilot_trade_notification_disabled: false,
    regime_notification_disabled: false,
  };

  const market: MarketBackend = {
    async analysis(r) {
      record('analysis', r);
      if (r.asset_id === 'nope') throw new ToolError('UnknownAsset', "Unknown asset 'nope'");
      if (r.timeframe !== 'd1') throw new ToolError(1004, `Timeframe ${r.timeframe} requires Pro`);
      return {
        ...served(r),
        as_of: '2026-01-15T00:00:00.000Z',
        indicators: { close: 110, change_pct: 1.5, rsi_14: 61.2, atr_14: 4 },
        levels: {
          nearest_support: { kind: 'support', low: 100, high: 102, distance_pct: -8.1 },
          nearest_resistance: null,
        },
        zone: {
          direction: 'long',
          bias: 'long',
          reason: null,
          entry_zone: { low: 100, high: 102 },
          entry_price: 101,
          invalidation: 97,
          stop_loss: 96,
          take_profits: [
            { price: 115, size_pct: 70, risk_reward: 2.8 },
            { price: 120, size_pct: 30, risk_reward: 3.8 },
          ],
          risk_pct: 5,
        },
        signal: {
          action: 'buy',
          score: 0.4,
          confidence: 0.72,
          factors: [{ name: 'trend', score: 0.8, weight: 0.3, contribution: 0.24 }],
        },
        fear_greed: { score: 64, zone: 'greed' },
        regime: { phase: 'uptrend' },
        patterns: ['hammer'],
      };
    },
    async signal(r) {
      record('signal', r);
      return {
        ...served(r),
        as_of: '2026-01-15T00:00:00.000Z',
        signal: { action: 'hold', score: 0.01, confidence: 0.3, factors: [] },
        cached_at: '2026-01-15T12:00:00.000Z',
        age: 0,
        max_age: 3600,
      };
    },
    async overview(r) {
      record('overview', r);
      return {
        ...served(r),
        as_of: '2026-01-15T00:00:00.000Z',
        locale: r.locale ?? 'en',
        text: 'TEST narrative.',
        source: 'facts',
      };
    },
    async assetMarkets(r) {
      record('assetMarkets', r);
      return {
        asset: TEST_BTC,
        venue: 'test-venue',
        markets: [
          {
            venue: 'test-venue',
            pair: 'BTC/USDT',
            market_type: 'spot',
            last: 110,
            change_24h_pct: 1,
            quote_volume_usd: 1e6,
          },
          {
            venue: 'test-venue',
            pair: 'BTC/USDT:USDT',
            market_type: 'derivatives',
            last: 110.5,
            change_24h_pct: null,
            quote_volume_usd: null,
            funding_rate: 0.0001,
          },
        ],
      };
    },
    async tradingSignals(r) {
      record('tradingSignals', r);
      return {
        timeframe: r.timeframe,
        asset_class: r.asset_class,
        as_of: '2026-01-15T12:00:00.000Z',
        sort: 'confidence_desc',
        total: 1,
        limit: 10,
        restricted: true,
        rows: [
          {
            asset: TEST_BTC,
            action: 'buy',
            confidence: 0.72,
            score: 0.4,
            trend: 'up',
            rsi: 61.2,
            fear_greed: 64,
            change_pct: 1.5,
          },
        ],
      };
    },
    async screener(r) {
      record('screener', r);
      return {
        asset_class: r.asset_class,
        timeframe: 'd1',
        as_of: '2026-01-15T00:00:00.000Z',
        assets_screened: 3,
        breakouts: [{ asset: TEST_BTC, direction: 'up', kind: 'zone', level: 105, distance_pct: 4.7 }],
        oversold: [],
        volume_surges: [],
      };
    },
    async fearGreed(r) {
      record('fearGreed', r);
      return {
        timeframe: 'd1',
        as_of: '2026-01-15T00:00:00.000Z',
        total: 1,
        limit: Math.min(r.limit, 100),
        assets: [{ asset: TEST_BTC, score: 64, zone: 'greed', price: 110, change_24h_pct: 1, volume_24h_usd: null }],
      };
    },
    async listAssets(r) {
      record('listAssets', r);
      return [
        {
          id: 'bitcoin',
          symbol: 'BTC',
          name: 'Bitcoin',
          asset_class: 'coins',
          price: 110,
          change_1h_pct: null,
          change_24h_pct: 1,
          change_7d_pct: null,
          volume_24h_usd: 1e6,
        },
      ];
    },
    async listExchanges() {
      return [{ id: 'test-exchange', name: 'Test Exchange', connected: true, volume: { total_24h_usd: null } }];
    },
    async exchangeDetail(id) {
      if (id !== 'test-exchange') throw new ToolError('UnknownExchange', `Unknown exchange '${id}'`);
      return {
        id,
        name: 'Test Exchange',
        connected: true,
        volume: { total_24h_usd: 5e6 },
        spot_pairs: 3,
        futures_pairs: 2,
        futures_open_interest_usd: 0,
      };
    },
  };

  const account: AccountBackend = {
    async accountInfo() {
      return {
        user: { id: 'user-1', email: 'test@example.com', created_at: '2026-01-01T00:00:00.000Z' },
        tier: 'free',
        tier_expires_at: null,
        favorites: [...favorites],
      };
    },
    async favorites(r) {
      record('favorites', r);
      return (await market.listAssets(r)).filter((a) => favorites.has(a.id));
    },
    async addFavorite(id) {
      if (id === 'nope') throw new ToolError('UnknownAsset', "Unknown asset 'nope'");
      favorites.add(id);
      return { asset_id: id, is_favorite: true };
    },
    async removeFavorite(id) {
      favorites.delete(id);
      return { asset_id: id, is_favorite: false };
    },
  };

  const portfolio: PortfolioBackend = {
    async positions(q) {
      record('positions', q);
      return TEST_POSITIONS_DATA;
    },
    async balances(q) {
      record('balances', q);
      return {
        balances: [
          {
            connection_id: 'test-exchange',
            account: 'spot',
            symbol: 'USDT',
            asset: null,
            balance: 50,
            balance_usd: 50,
            percentage_of_total: 100,
          },
          {
            connection_id: 'test-exchange',
            account: 'spot',
            symbol: 'ODD',
            asset: null,
            balance: 9,
            balance_usd: null,
            percentage_of_total: null,
          },
        ],
        total_usd: 50,
        priced_count: 1,
        unpriced_count: 1,
      };
    },
    async orders(f) {
      record('orders', f);
      return {
        orders: [
          {
            id: 'order-1',
            connection_id: 'test-exchange',
            pair: 'BTC/USDT',
            asset_id: 'bitcoin',
            side: 'buy',
            price: 100,
            size: 2,
            fee: null,
            pnl: null,
            fills_count: 2,
            last_fill_at: '2026-01-14T00:00:00.000Z',
          },
        ],
        total: 1,
      };
    },
    async trades(f) {
      record('trades', f);
      return {
        trades: [
          {
            external_id: 'fill-1',
            connection_id: 'test-exchange',
            pair: 'BTC/USDT',
            asset_id: 'bitcoin',
            side: 'buy',
            price: 100,
            size: 1,
            fee: 0.1,
            pnl: null,
            executed_at: '2026-01-14T00:00:00.000Z',
          },
        ],
        total: 1,
      };
    },
    async positionAnalysis(id, q) {
      record('positionAnalysis', { id, ...q });
      if (id === 'pos-unpriced') throw new ToolError('Unprocessable', 'The position has no asset and no mark');
      return {
        thesis_status: 'intact',
        mark: 110,
        entry_price: 100,
        stop_loss: 90,
        take_profit: null,
        unrealized_r: 1,
        remaining_rr: null,
        warnings: ['protective_levels_not_synced'],
      };
    },
    async editPosition(input) {
      record('editPosition', input);
      const p = TEST_POSITIONS.find((x) => x.id === input.position_id);
      if (!p) throw new ToolError('NotFound', `No position ${input.position_id}`);
      return { ...p, notes: input.notes };
    },
  };

  const alertsBackend: AlertBackend = {
    async alerts() {
      return alerts;
    },
    async createAlert(p) {
      record('createAlert', p);
      const a: Alert = {
        id: `00000000-0000-4000-8000-00000000000${alerts.length + 1}`,
        kind: p.kind,
        created_at: '2026-01-15T12:00:00.000Z',
        status: 'active',
        body: {
          asset_id: p.asset_id,
          asset: p.asset_id === 'bitcoin' ? TEST_BTC : null,
          target: p.target,
          timeframe: p.timeframe ?? null,
          live: { price: null, value: null },
          expires_at: '2026-04-15T12:00:00.000Z',
          triggered_at: null,
        },
      };
      alerts.push(a);
      return a;
    },
    async deleteAlert(id) {
      const i = alerts.findIndex((a) => a.id === id);
      if (i < 0) throw new ToolError('NotificationNotFound', `No alert '${id}' on this account`);
      alerts.splice(i, 1);
    },
    async notificationPreferences() {
      return prefs;
    },
    async updateNotificationPreferences(patch) {
      prefs = { ...prefs, ...patch };
      return prefs;
    },
  };

  const pilot: PilotBackend = {
    async pilotSpectate() {
      return { open_positions: [{ asset: TEST_BTC, side: 'long', entry_price: 100, mfe_r: 0.5, mae_r: null }] };
    },
    async pilotTrackRecord(r) {
      record('pilotTrackRecord', r);
      return {
        trades: [{ side: 'short', entry_price: 100, exit_price: 95, stop_loss: 104, take_profit: 95 }],
        trades_truncated: r.before_trade === undefined,
      };
    },
  };

  return { backend: { market, account, portfolio, alerts: alertsBackend, pilot }, calls, favorites };
}
