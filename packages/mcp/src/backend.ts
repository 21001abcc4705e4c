/**
 * The `Backend` the tool catalog is written against: every tool's data needs, one method each, each
 * method one operation the contract declares (`OPERATIONS`). The server builds it over its registry
 * of operations for one signed-in user (`/mcp`, `marketlens mcp`); the stdio runner reaching a remote
 * server is handed the REST one. Results are the JSON shapes the REST routes put in `data`, typed from
 * the contract's schemas (`z.output` of each), so the shapes are written once and a result is the
 * structured content a tool answers, untouched.
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
  AssetRefSchema,
  AssetRowSchema,
  BalancesSchema,
  CoinFuturesTickerSchema,
  ExchangeDetailSchema,
  ExchangeSchema,
  FavoriteStateSchema,
  FearGreedListSchema,
  FearGreedSchema,
  MarketsSchema,
  MarketTypeName,
  NotificationSchema,
  OPERATIONS,
  OperationId,
  OperationInput,
  OperationOutput,
  OrdersSchema,
  OverviewSchema,
  PilotOpenPositionSchema,
  PilotSpectateSchema,
  PilotTrackRecordSchema,
  PilotTradeSchema,
  PortfolioTotalsSchema,
  PositionAnalysisSchema,
  PositionSchema,
  PositionsSchema,
  RegisteredAlertWebhookSchema,
  ScreenerSchema,
  ServiceTrackRecordSchema,
  SignalListSchema,
  SignalResponseSchema,
  SignalSchema,
  Timeframe,
  TradesSchema,
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

/**
 * The port: each backend group's methods and the declared operation (`OPERATIONS` of
 * @marketlens/contract) each one runs. A method takes the operation's parsed input and answers its
 * output, so its types are the declaration's, written nowhere else; {@link backendOver} builds
 * every group over one function that runs an operation by id.
 */
export const BACKEND_OPERATIONS = {
  /** Market data: readable by every signed-in user (tier gates as on REST). */
  market: {
    analysis: 'analysis.get',
    signal: 'analysis.signal',
    overview: 'analysis.overview',
    assetMarkets: 'analysis.markets',
    tradingSignals: 'analysis.signals',
    screener: 'analysis.screener',
    fearGreed: 'analysis.fearGreed',
    listAssets: 'market.assets',
    listExchanges: 'market.exchanges',
    exchangeDetail: 'market.exchange',
    trackRecord: 'analysis.trackRecord',
  },
  /** The signed-in user and its favorites. */
  account: {
    accountInfo: 'auth.accountInfo',
    favorites: 'market.favorites',
    addFavorite: 'market.addFavorite',
    removeFavorite: 'market.removeFavorite',
  },
  /** The user's exchange data (read-only, but for a position's notes). */
  portfolio: {
    positions: 'accounts.positions',
    balances: 'accounts.balances',
    orders: 'accounts.orders',
    trades: 'accounts.trades',
    positionAnalysis: 'accounts.positionAnalysis',
    editPosition: 'accounts.editPosition',
  },
  /** Alerts and notification preferences. */
  alerts: {
    alerts: 'alerts.list',
    createAlert: 'alerts.create',
    deleteAlert: 'alerts.delete',
    notificationPreferences: 'alerts.preferences',
    updateNotificationPreferences: 'alerts.updatePreferences',
  },
  /** Signed webhooks, the alert channel that needs no browser (no REST route). */
  webhooks: {
    registerWebhook: 'alerts.registerWebhook',
    webhooks: 'alerts.webhooks',
    deleteWebhook: 'alerts.deleteWebhook',
  },
  /** The pilot's spectate feed. */
  pilot: {
    pilotSpectate: 'pilot.spectate',
    pilotTrackRecord: 'pilot.trackRecord',
  },
} as const satisfies Record<string, Record<string, OperationId>>;

type Groups = typeof BACKEND_OPERATIONS;

/** The fields of an operation's input schema (a transformed schema counts as having some). */
type InputFields<K extends OperationId> = (typeof OPERATIONS)[K]['input'] extends { shape: infer F } ? F : { input: K };

/** One backend method: the operation's input (none for an operation that takes none) to its output. */
export type OperationCall<K extends OperationId> = [keyof InputFields<K>] extends [never]
  ? (input?: OperationInput<K>) => Promise<OperationOutput<K>>
  : (input: OperationInput<K>) => Promise<OperationOutput<K>>;

type GroupOf<G extends keyof Groups> = { -readonly [M in keyof Groups[G]]: OperationCall<Groups[G][M] & OperationId> };

export type MarketBackend = GroupOf<'market'>;
export type AccountBackend = GroupOf<'account'>;
export type PortfolioBackend = GroupOf<'portfolio'>;
export type AlertBackend = GroupOf<'alerts'>;
export type WebhookBackend = GroupOf<'webhooks'>;
export type PilotBackend = GroupOf<'pilot'>;

/** Runs a declared operation by id with its parsed input (the server's registry, a REST client). */
export type OperationRunner = <K extends OperationId>(id: K, input: OperationInput<K>) => Promise<OperationOutput<K>>;

/** Every group of the port over `run`: each method runs its operation (see {@link BACKEND_OPERATIONS}). */
export function backendOver(run: OperationRunner): Required<Omit<Backend, 'live'>> {
  const groups: Record<string, Record<string, (input?: unknown) => Promise<unknown>>> = {};
  for (const [group, methods] of Object.entries(BACKEND_OPERATIONS)) {
    groups[group] = Object.fromEntries(
      Object.entries(methods).map(([method, id]) => [
        method,
        (input?: unknown) => run(id, (input ?? {}) as OperationInput<typeof id>),
      ]),
    );
  }
  return groups as unknown as Required<Omit<Backend, 'live'>>;
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
