/**
 * The `Backend` the tool catalog is written against: every tool's data needs, one method each.
 * The server implements it over its services for one signed-in user (`/mcp`); the stdio runner is
 * handed one by whoever starts it (the CLI, a test). Results are the JSON shapes the REST routes put
 * in `data` (contract sections 2 and 4): the fields the tools read are typed here, and whatever else a
 * result carries is passed through to the client untouched as structured content.
 *
 * A method fails by throwing an error with a `code` (the REST `ErrorResponse` code: `UnknownAsset`,
 * `1004`, ...) and a `message`, e.g. the server's `AppError` or this package's `ToolError`; the tool
 * then answers an MCP tool error with that code.
 */
import type {
  AssetClassFilter,
  AssetListInput,
  BalancesQuery,
  EditPositionInput,
  FearGreedInput,
  FillFilter,
  MarketTypeName,
  NotificationKind,
  NotificationPayload,
  NotificationPreferences,
  NotificationPreferencesPatch,
  NotificationStatus,
  PositionAnalysisQuery,
  PositionsQuery,
  ScreenerInput,
  Timeframe,
  TradingSignalsInput,
} from '@marketlens/contract';

// ---- shared ----

export type AssetClass = 'coins' | 'stocks' | 'fx' | 'external';

/** The asset block of every result (contract 2.5). */
export interface AssetRef {
  id: string;
  symbol: string;
  name: string;
  icon: string | null;
  asset_class: AssetClass;
}

/** Which market served an analysis, signal or overview. */
export interface Served {
  asset: AssetRef;
  timeframe: string;
  /** The market actually served. */
  market_type: MarketTypeName;
  /** Venue-native instrument name. */
  pair: string;
  venue: string;
}

// ---- market requests ----

/** An analysis, signal or overview request, as `/v2/analysis*` takes it (timeframes in the REST spelling). */
export interface AnalysisRequest {
  asset_id: string;
  timeframe: Timeframe;
  market_type?: MarketTypeName;
  pair?: string;
  /** Candles analysed. */
  limit: number;
  /** Exchange id whose market data is read; absent: the configured venue. */
  connection?: string;
}

// ---- market results ----

export interface TakeProfit {
  price: number;
  size_pct: number;
  risk_reward: number;
}

/** The published trade plan of an analysis (`zone`, contract 2.10). */
export interface TradePlan {
  direction: 'long' | 'short' | null;
  bias: 'long' | 'short' | null;
  reason: string | null;
  entry_zone: { low: number; high: number } | null;
  entry_price: number | null;
  invalidation: number | null;
  stop_loss: number | null;
  take_profits: TakeProfit[];
  risk_pct: number | null;
}

export interface SignalFactor {
  name: string;
  score: number | null;
  weight: number;
  contribution: number;
}

/** Buy/Hold/Sell with confidence and the weighted factors (contract 2.10). */
export interface Signal {
  action: 'buy' | 'hold' | 'sell';
  score: number;
  confidence: number;
  factors: SignalFactor[];
}

/** Fear & Greed of one asset: score 0..100 and its zone; both null when the candles do not allow one. */
export interface FearGreed {
  score: number | null;
  zone: string | null;
}

export interface Level {
  kind: 'support' | 'resistance';
  low: number;
  high: number;
  distance_pct: number;
}

/** `GET /v2/analysis/{asset_id}` data. */
export interface AnalysisData extends Served {
  as_of: string;
  indicators: { close: number; change_pct: number | null; rsi_14: number | null; atr_14: number | null };
  levels: { nearest_support: Level | null; nearest_resistance: Level | null };
  zone: TradePlan;
  signal: Signal;
  fear_greed: FearGreed;
  regime: { phase: string | null };
  patterns: string[];
}

/** `GET /v2/analysis/{asset_id}/signal` data. */
export interface SignalData extends Served {
  as_of: string;
  signal: Signal;
  cached_at: string;
  age: number;
  max_age: number;
}

/** `GET /v2/analysis/{asset_id}/overview` data. */
export interface OverviewData extends Served {
  as_of: string;
  locale: string;
  text: string;
  source: 'facts' | 'llm';
}

export interface MarketTicker {
  venue: string;
  pair: string;
  market_type: MarketTypeName;
  last: number;
  change_24h_pct: number | null;
  quote_volume_usd: number | null;
  funding_rate?: number | null;
}

/** `GET /v2/analysis/{asset_id}/markets` data. */
export interface AssetMarketsData {
  asset: AssetRef;
  venue: string;
  markets: MarketTicker[];
}

export interface SignalListRow {
  asset: AssetRef;
  action: 'buy' | 'hold' | 'sell';
  confidence: number;
  score: number;
  trend: string;
  rsi: number | null;
  fear_greed: number | null;
  change_pct: number | null;
}

/** `GET /v2/assets/signals` data. */
export interface SignalListData {
  timeframe: string;
  asset_class: AssetClassFilter;
  as_of: string;
  sort: string;
  total: number;
  limit: number;
  /** The free list: the top rows of the default sort. */
  restricted: boolean;
  rows: SignalListRow[];
}

/** `GET /v2/assets/screener` data. */
export interface ScreenerData {
  asset_class: AssetClassFilter;
  timeframe: string;
  as_of: string;
  assets_screened: number;
  breakouts: { asset: AssetRef; direction: 'up' | 'down'; kind: string; level: number; distance_pct: number }[];
  oversold: { asset: AssetRef; rsi_14: number; support: number; distance_pct: number }[];
  volume_surges: { asset: AssetRef; volume_z: number | null; volume_ratio: number; change_pct: number | null }[];
}

export interface FearGreedRow {
  asset: AssetRef;
  score: number | null;
  zone: string | null;
  price: number | null;
  change_24h_pct: number | null;
  volume_24h_usd: number | null;
}

/** `GET /v2/insights/fear_greed` data. */
export interface FearGreedListData {
  timeframe: string;
  as_of: string;
  total: number;
  limit: number;
  assets: FearGreedRow[];
}

/** A row of `GET /v2/assets/` and `/v2/assets/favorites`. */
export interface AssetRow {
  id: string;
  symbol: string;
  name: string;
  asset_class: AssetClass;
  price: number | null;
  change_1h_pct: number | null;
  change_24h_pct: number | null;
  change_7d_pct: number | null;
  volume_24h_usd: number | null;
}

/** `POST /v2/assets/favorites` / `DELETE /v2/assets/favorites/{asset_id}` data. */
export interface FavoriteState {
  asset_id: string;
  is_favorite: boolean;
}

/** A `GET /v1/exchanges` item. */
export interface Exchange {
  id: string;
  name: string;
  connected: boolean;
  volume: { total_24h_usd: number | null };
}

/** `GET /v1/exchanges/{exchange_id}` data. */
export interface ExchangeDetail extends Exchange {
  spot_pairs: number;
  futures_pairs: number;
  futures_open_interest_usd: number;
}

// ---- account ----

/** The signed-in user and the tier it is served at. */
export interface AccountInfo {
  user: { id: string; email: string; created_at: string };
  /** Effective tier; null when the subscription could not be read (the user is served as free). */
  tier: 'free' | 'pro' | 'elite' | null;
  tier_expires_at: string | null;
  favorites: string[];
}

/** A position on the wire (`PositionExtended`, contract 2.6): mark-dependent figures are null when unpriced. */
export interface Position {
  id: string;
  connection_id: string;
  asset: AssetRef | null;
  pair: string;
  side: 'long' | 'short' | null;
  size: number;
  entry_price: number | null;
  leverage: number | null;
  liquidation_price: number | null;
  current_price: number | null;
  market_value: number | null;
  unrealized_pnl: number | null;
  unrealized_pnl_usd: number | null;
  daily_pnl: number | null;
  stop_loss: number | null;
  take_profit: number | null;
  notes: string;
}

/** Portfolio totals: counts include unpriced positions, money totals exclude them (contract 2.6). */
export interface PortfolioTotals {
  open_positions_count: number;
  open_long_positions_count: number;
  open_short_positions_count: number;
  priced_positions_count: number;
  unpriced_positions_count: number;
  total_market_value_usd: number | null;
  total_unrealized_pnl_usd: number | null;
  total_daily_pnl_usd: number | null;
  total_weekly_pnl_usd: number | null;
  total_margin_usd: number | null;
}

/** `GET /v2/positions` data: every open position, priced or not, and the totals. */
export interface PositionsData {
  positions: Position[];
  totals: PortfolioTotals;
}

export interface Balance {
  connection_id: string;
  account: string;
  symbol: string;
  asset: AssetRef | null;
  balance: number;
  balance_usd: number | null;
  percentage_of_total: number | null;
}

/** Balances with their total (contract 2.7). */
export interface BalancesData {
  balances: Balance[];
  total_usd: number | null;
  priced_count: number;
  unpriced_count: number;
}

export interface Trade {
  external_id: string;
  connection_id: string;
  pair: string;
  asset_id: string | null;
  side: 'buy' | 'sell';
  price: number;
  size: number;
  fee: number | null;
  pnl: number | null;
  executed_at: string;
}

export interface Order {
  id: string;
  connection_id: string;
  pair: string;
  asset_id: string | null;
  side: 'buy' | 'sell';
  price: number;
  size: number;
  fee: number | null;
  pnl: number | null;
  fills_count: number;
  last_fill_at: string;
}

/** `GET /v1/orders` data. */
export interface OrdersData {
  orders: Order[];
  total: number;
}

/** `GET /v1/trades` data. */
export interface TradesData {
  trades: Trade[];
  total: number;
}

/** `GET /v2/positions/{position_id}/analysis` data (contract 2.10): descriptive only. */
export interface PositionAnalysisData {
  thesis_status: 'intact' | 'invalidated' | 'unknown';
  mark: number;
  entry_price: number;
  stop_loss: number | null;
  take_profit: number | null;
  unrealized_r: number | null;
  remaining_rr: number | null;
  warnings: string[];
}

// ---- alerts and preferences ----

/** A notification (alert), contract 2.4: the alert and its body resolved with live target data. */
export interface Alert {
  id: string;
  kind: NotificationKind;
  created_at: string;
  status: NotificationStatus;
  body: {
    asset_id: string;
    asset: AssetRef | null;
    target: number;
    timeframe: string | null;
    live: { price: number | null; value: number | null };
    expires_at: string;
    triggered_at: string | null;
  };
}

// ---- pilot ----

/** An open position of the pilot (the service's paper-trading bot), with its live excursions in R. */
export interface PilotPosition {
  asset?: AssetRef;
  side: 'long' | 'short';
  entry_price: number;
  mfe_r: number | null;
  mae_r: number | null;
  [field: string]: unknown;
}

/** `GET /pilot/spectate` data; `last_active_at` is absent when unknown (absence is not stalled). */
export interface PilotSpectate {
  open_positions: PilotPosition[];
  last_active_at?: string;
  [field: string]: unknown;
}

/** A closed pilot trade; `asset` is absent when the asset is not in the coin universe. */
export interface PilotTrade {
  asset?: AssetRef;
  side: 'long' | 'short';
  entry_price: number;
  exit_price: number | null;
  stop_loss: number | null;
  take_profit: number | null;
  [field: string]: unknown;
}

/** `GET /pilot/spectate/track-record` data: `trades_truncated` means older trades exist before the window. */
export interface PilotTrackRecord {
  trades: PilotTrade[];
  trades_truncated: boolean;
  [field: string]: unknown;
}

// ---- the port ----

/** Market data: readable by every signed-in user (tier gates as on REST). */
export interface MarketBackend {
  analysis(request: AnalysisRequest): Promise<AnalysisData>;
  signal(request: AnalysisRequest): Promise<SignalData>;
  overview(request: AnalysisRequest & { locale?: string }): Promise<OverviewData>;
  assetMarkets(request: {
    asset_id: string;
    market_type?: MarketTypeName;
    connection?: string;
  }): Promise<AssetMarketsData>;
  /** The signal list; `timeframe` in the REST spelling (`h1`, `m15`, `d1`). */
  tradingSignals(request: TradingSignalsInput): Promise<SignalListData>;
  screener(request: ScreenerInput): Promise<ScreenerData>;
  fearGreed(request: FearGreedInput): Promise<FearGreedListData>;
  listAssets(request: AssetListInput): Promise<AssetRow[]>;
  listExchanges(): Promise<Exchange[]>;
  exchangeDetail(exchangeId: string): Promise<ExchangeDetail>;
}

/** The signed-in user and its favorites. */
export interface AccountBackend {
  accountInfo(): Promise<AccountInfo>;
  favorites(request: AssetListInput): Promise<AssetRow[]>;
  addFavorite(assetId: string): Promise<FavoriteState>;
  removeFavorite(assetId: string): Promise<FavoriteState>;
}

/** The user's exchange data (read-only, but for a position's notes). */
export interface PortfolioBackend {
  positions(query: PositionsQuery): Promise<PositionsData>;
  balances(query: BalancesQuery): Promise<BalancesData>;
  orders(filter: FillFilter): Promise<OrdersData>;
  trades(filter: FillFilter): Promise<TradesData>;
  positionAnalysis(positionId: string, query: PositionAnalysisQuery): Promise<PositionAnalysisData>;
  editPosition(input: Pick<EditPositionInput, 'position_id' | 'notes'>): Promise<Position>;
}

/** Alerts and notification preferences. */
export interface AlertBackend {
  alerts(): Promise<Alert[]>;
  createAlert(payload: NotificationPayload): Promise<Alert>;
  /** Fails with the REST code (`NotificationNotFound`) when the alert is not the user's. */
  deleteAlert(alertId: string): Promise<void>;
  notificationPreferences(): Promise<NotificationPreferences>;
  updateNotificationPreferences(patch: NotificationPreferencesPatch): Promise<NotificationPreferences>;
}

/** The pilot's spectate feed. */
export interface PilotBackend {
  pilotSpectate(): Promise<PilotSpectate>;
  pilotTrackRecord(request: { before_trade?: number }): Promise<PilotTrackRecord>;
}

/**
 * Everything the tools need. A backend may leave a group out (`account`, `portfolio`, `alerts`,
 * `pilot`): its tools are then not listed, so a client never sees a tool that cannot work.
 */
export interface Backend {
  market: MarketBackend;
  account?: AccountBackend;
  portfolio?: PortfolioBackend;
  alerts?: AlertBackend;
  pilot?: PilotBackend;
}
