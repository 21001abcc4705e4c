/**
 * The `Backend` the tool catalog is written against: every tool's data needs, one method each.
 * The server implements it over its services for one signed-in user (`/mcp`); the stdio runner is
 * handed one by whoever starts it (the CLI, a test). Results are the JSON shapes the REST routes put
 * in `data`, typed from the contract's schemas (`z.output` of each), so the shapes are written once and
 * a result is the structured content a tool answers, untouched.
 *
 * A method fails by throwing an error with a `code` (the REST `ErrorResponse` code: `UnknownAsset`,
 * `1004`, ...) and a `message`, e.g. the server's `AppError` or this package's `ToolError`; the tool
 * then answers an MCP tool error with that code.
 */
import type {
  AccountInfoSchema,
  AlertWebhookSchema,
  AnalysisSchema,
  AssetClassSchema,
  AssetListInput,
  AssetRefSchema,
  AssetRowSchema,
  BalancesQuery,
  BalancesSchema,
  CoinFuturesTickerSchema,
  EditPositionInput,
  ExchangeDetailSchema,
  ExchangeSchema,
  FavoriteStateSchema,
  FearGreedInput,
  FearGreedListSchema,
  FearGreedSchema,
  FillFilter,
  MarketsSchema,
  MarketTypeName,
  NotificationPayload,
  NotificationPreferences,
  NotificationPreferencesPatch,
  NotificationSchema,
  OrdersSchema,
  OverviewSchema,
  PilotOpenPositionSchema,
  PilotSpectateSchema,
  PilotTrackRecordSchema,
  PilotTradeSchema,
  PortfolioTotalsSchema,
  PositionAnalysisQuery,
  PositionAnalysisSchema,
  PositionSchema,
  PositionsQuery,
  PositionsSchema,
  RegisterAlertWebhook,
  RegisteredAlertWebhookSchema,
  ScreenerInput,
  ScreenerSchema,
  ServiceTrackRecordSchema,
  SignalListSchema,
  SignalResponseSchema,
  SignalSchema,
  Timeframe,
  TrackRecordInput,
  TradesSchema,
  TradingSignalsInput,
} from '@marketlens/contract';
import type { z } from 'zod';

// ---- shared ----

export type AssetClass = z.output<typeof AssetClassSchema>;

/** The asset block of every market result. */
export type AssetRef = z.output<typeof AssetRefSchema>;

/** Which market served an analysis, signal or overview, and from which source. */
export type Served = Pick<
  AnalysisData,
  'asset' | 'timeframe' | 'market_type' | 'pair' | 'venue' | 'data_source' | 'fetched_at' | 'stale'
>;

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

/** `GET /v2/analysis/{asset_id}` data. */
export type AnalysisData = z.output<typeof AnalysisSchema>;

/** The published trade plan of an analysis (`zone`). */
export type TradePlan = AnalysisData['zone'];

export type TakeProfit = TradePlan['take_profits'][number];

/** Buy/Hold/Sell with confidence and the weighted factors. */
export type Signal = z.output<typeof SignalSchema>;

export type SignalFactor = Signal['factors'][number];

/** Fear & Greed of one asset: score 0..100 and its zone; both null when the candles do not allow one. */
export type FearGreed = z.output<typeof FearGreedSchema>;

/** The nearest support or resistance of an analysis. */
export type Level = NonNullable<AnalysisData['levels']['nearest_support']>;

/** `GET /v2/analysis/{asset_id}/signal` data. */
export type SignalData = z.output<typeof SignalResponseSchema>;

/** `GET /v2/analysis/{asset_id}/overview` data. */
export type OverviewData = z.output<typeof OverviewSchema>;

/** A ticker of an asset's market; spot rows carry null funding columns. */
export type MarketTicker = z.output<typeof CoinFuturesTickerSchema>;

/** `GET /v2/analysis/{asset_id}/markets` data. */
export type AssetMarketsData = z.output<typeof MarketsSchema>;

/** `GET /v2/assets/signals` data. */
export type SignalListData = z.output<typeof SignalListSchema>;

export type SignalListRow = SignalListData['rows'][number];

/** `GET /v2/assets/screener` data. */
export type ScreenerData = z.output<typeof ScreenerSchema>;

/** `GET /v2/insights/fear_greed` data. */
export type FearGreedListData = z.output<typeof FearGreedListSchema>;

export type FearGreedRow = FearGreedListData['assets'][number];

/** A row of `GET /v2/assets/` and `/v2/assets/favorites`. */
export type AssetRow = z.output<typeof AssetRowSchema>;

/** `POST /v2/assets/favorites` / `DELETE /v2/assets/favorites/{asset_id}` data. */
export type FavoriteState = z.output<typeof FavoriteStateSchema>;

/** A `GET /v1/exchanges` item. */
export type Exchange = z.output<typeof ExchangeSchema>;

/** `GET /v1/exchanges/{exchange_id}` data. */
export type ExchangeDetail = z.output<typeof ExchangeDetailSchema>;

// ---- account ----

/** The signed-in user, the tier it is served at (null: unreadable, served as free), and its favorites. */
export type AccountInfo = z.output<typeof AccountInfoSchema>;

/** A position on the wire (`PositionExtended`): mark-dependent figures are null when unpriced. */
export type Position = z.output<typeof PositionSchema>;

/** Portfolio totals: counts include unpriced positions, money totals exclude them. */
export type PortfolioTotals = z.output<typeof PortfolioTotalsSchema>;

/** `GET /v2/positions` data: every open position, priced or not, and the totals. */
export type PositionsData = z.output<typeof PositionsSchema>;

/** Balances with their total. */
export type BalancesData = z.output<typeof BalancesSchema>;

export type Balance = BalancesData['balances'][number];

/** `GET /v1/orders` data. */
export type OrdersData = z.output<typeof OrdersSchema>;

export type Order = OrdersData['orders'][number];

/** `GET /v1/trades` data. */
export type TradesData = z.output<typeof TradesSchema>;

export type Trade = TradesData['trades'][number];

/** `GET /v2/positions/{position_id}/analysis` data: descriptive only. */
export type PositionAnalysisData = z.output<typeof PositionAnalysisSchema>;

// ---- alerts and preferences ----

/** An alert as REST and the tools answer it (the contract's `Notification`): resolved with live target data. */
export type Alert = z.output<typeof NotificationSchema>;

/** A webhook as the tools answer it (the secret is never echoed after registration). */
export type AlertWebhook = z.output<typeof AlertWebhookSchema>;

/** A webhook just registered, with its signing secret (shown this once). */
export type RegisteredAlertWebhook = z.output<typeof RegisteredAlertWebhookSchema>;

// ---- pilot ----

/** An open position of the pilot (the service's paper-trading bot), with its live excursions in R. */
export type PilotPosition = z.output<typeof PilotOpenPositionSchema>;

/** `GET /pilot/spectate` data; `last_active_at` is absent when unknown (absence is not stalled). */
export type PilotSpectate = z.output<typeof PilotSpectateSchema>;

/** A closed pilot trade; `asset` is absent when the asset is not in the coin universe. */
export type PilotTrade = z.output<typeof PilotTradeSchema>;

/** `GET /pilot/spectate/track-record` data: a page of closed trades, and the cursor of the older page. */
export type PilotTrackRecord = z.output<typeof PilotTrackRecordSchema>;

// ---- track record ----

/** `GET /v2/track-record` data: the service's published plans and how they ended, by timeframe and asset class. */
export type TrackRecordData = z.output<typeof ServiceTrackRecordSchema>;

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
  /** The service's own track record (public on REST); `timeframe` in the REST spelling. */
  trackRecord(request: TrackRecordInput): Promise<TrackRecordData>;
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

/** Signed webhooks, the alert channel that needs no browser. */
export interface WebhookBackend {
  /** Fails with `InvalidRequest` for a URL the push rules refuse (not https, internal address, ...). */
  registerWebhook(input: RegisterAlertWebhook): Promise<RegisteredAlertWebhook>;
  webhooks(): Promise<AlertWebhook[]>;
  /** Fails with `NotFound` when the webhook is not the user's. */
  deleteWebhook(webhookId: string): Promise<void>;
}

/** The pilot's spectate feed. */
export interface PilotBackend {
  pilotSpectate(): Promise<PilotSpectate>;
  pilotTrackRecord(request: { before_trade?: number }): Promise<PilotTrackRecord>;
}

/** A followed candle: an asset id and a timeframe (wire spelling, `d1`, `h1`, ...). */
export interface Followed {
  asset_id: string;
  timeframe: Timeframe;
}

/** Subscriptions checked by {@link LiveBackend.checkFollow}: resolved, and how to follow each. */
export interface Followable {
  /** The subscriptions asked, in order, with asset ids resolved (a ticker becomes its id). */
  followed: Followed[];
  /**
   * Calls `onClose` each time the candle of `followed` (one of the list) closes and its analysis is
   * published; answers the function that stops following (idempotent). Holds nothing once stopped.
   */
  watch(followed: Followed, onClose: () => void): () => void;
}

/** Candle closes, the source of resource subscriptions (`resources/subscribe`). */
export interface LiveBackend {
  /**
   * Checks that one session may follow `followed` together, as `GET /v2/stream` checks a stream:
   * the assets exist and are analysed, each timeframe passes the tier's gate, and the distinct
   * candles fit the tier's cap. Throws the contract's error otherwise (`UnknownAsset`, `1004`,
   * `StreamSubscriptionLimitExceeded`, ...).
   */
  checkFollow(followed: readonly Followed[]): Promise<Followable>;
}

/**
 * Everything the tools need. A backend may leave a group out (`account`, `portfolio`, `alerts`,
 * `webhooks`, `pilot`): its tools are then not listed, so a client never sees a tool that cannot work.
 */
export interface Backend {
  market: MarketBackend;
  account?: AccountBackend;
  portfolio?: PortfolioBackend;
  alerts?: AlertBackend;
  webhooks?: WebhookBackend;
  pilot?: PilotBackend;
  /** Candle closes for resource subscriptions; without it resources are read but not followed. */
  live?: LiveBackend;
}
