/**
 * The `Backend` the tool catalog is written against: a runner of the operations the contract
 * declares (`OPERATIONS`), each tool running one by id. The server builds it over its registry of
 * operations for one signed-in user (`/mcp`, `marketlens mcp`); the stdio runner reaching a remote
 * server is handed the REST one. Results are the JSON shapes the REST routes put in `data`, typed from
 * the contract's schemas (`OperationOutput` of each), so the shapes are written once and a result is
 * the structured content a tool answers, untouched.
 *
 * A run fails by throwing an error with a `code` (the REST `ErrorResponse` code: `UnknownAsset`,
 * `1004`, ...) and a `message`, e.g. the server's `AppError` or this package's `ToolError`; the tool
 * then answers an MCP tool error with that code.
 */
import type {
  AssetClassSchema,
  AssetRefSchema,
  CoinFuturesTickerSchema,
  FearGreedSchema,
  MarketTypeName,
  OperationId,
  OperationInput,
  OperationOutput,
  SignalSchema,
  Timeframe,
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
export type AnalysisData = OperationOutput<'analysis.get'>;

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
export type SignalData = OperationOutput<'analysis.signal'>;

/** `GET /v2/analysis/{asset_id}/overview` data. */
export type OverviewData = OperationOutput<'analysis.overview'>;

/** A ticker of an asset's market; spot rows carry null funding columns. */
export type MarketTicker = z.output<typeof CoinFuturesTickerSchema>;

/** `GET /v2/analysis/{asset_id}/markets` data. */
export type AssetMarketsData = OperationOutput<'analysis.markets'>;

/** `GET /v2/assets/signals` data. */
export type SignalListData = OperationOutput<'analysis.signals'>;

export type SignalListRow = SignalListData['rows'][number];

/** `GET /v2/assets/screener` data. */
export type ScreenerData = OperationOutput<'analysis.screener'>;

/** `GET /v2/insights/fear_greed` data. */
export type FearGreedListData = OperationOutput<'analysis.fearGreed'>;

export type FearGreedRow = FearGreedListData['assets'][number];

/** A row of `GET /v2/assets/` and `/v2/assets/favorites`. */
export type AssetRow = OperationOutput<'market.assets'>[number];

/** `POST /v2/assets/favorites` / `DELETE /v2/assets/favorites/{asset_id}` data. */
export type FavoriteState = OperationOutput<'market.addFavorite'>;

/** A `GET /v1/exchanges` item. */
export type Exchange = OperationOutput<'market.exchanges'>[number];

/** `GET /v1/exchanges/{exchange_id}` data. */
export type ExchangeDetail = OperationOutput<'market.exchange'>;

// ---- account ----

/** The signed-in user, the tier it is served at (null: unreadable, served as free), and its favorites. */
export type AccountInfo = OperationOutput<'auth.accountInfo'>;

/** A position on the wire (`PositionExtended`): mark-dependent figures are null when unpriced. */
export type Position = OperationOutput<'accounts.editPosition'>;

/** Portfolio totals: counts include unpriced positions, money totals exclude them. */
export type PortfolioTotals = PositionsData['totals'];

/** `GET /v2/positions` data: every open position, priced or not, and the totals. */
export type PositionsData = OperationOutput<'accounts.positions'>;

/** Balances with their total. */
export type BalancesData = OperationOutput<'accounts.balances'>;

export type Balance = BalancesData['balances'][number];

/** `GET /v1/orders` data. */
export type OrdersData = OperationOutput<'accounts.orders'>;

export type Order = OrdersData['orders'][number];

/** `GET /v1/trades` data. */
export type TradesData = OperationOutput<'accounts.trades'>;

export type Trade = TradesData['trades'][number];

/** `GET /v2/positions/{position_id}/analysis` data: descriptive only. */
export type PositionAnalysisData = OperationOutput<'accounts.positionAnalysis'>;

// ---- alerts and preferences ----

/** An alert as REST and the tools answer it (the contract's `Notification`): resolved with live target data. */
export type Alert = OperationOutput<'alerts.list'>[number];

/** A webhook as the tools answer it (the secret is never echoed after registration). */
export type AlertWebhook = OperationOutput<'alerts.webhooks'>[number];

/** A webhook just registered, with its signing secret (shown this once). */
export type RegisteredAlertWebhook = OperationOutput<'alerts.registerWebhook'>;

// ---- pilot ----

/** An open position of the pilot (the service's paper-trading bot), with its live excursions in R. */
export type PilotPosition = PilotSpectate['open_positions'][number];

/** `GET /pilot/spectate` data; `last_active_at` is absent when unknown (absence is not stalled). */
export type PilotSpectate = OperationOutput<'pilot.spectate'>;

/** A closed pilot trade; `asset` is absent when the asset is not in the coin universe. */
export type PilotTrade = PilotTrackRecord['trades'][number];

/** `GET /pilot/spectate/track-record` data: a page of closed trades, and the cursor of the older page. */
export type PilotTrackRecord = OperationOutput<'pilot.trackRecord'>;

// ---- track record ----

/** `GET /v2/track-record` data: the service's published plans and how they ended, by timeframe and asset class. */
export type TrackRecordData = OperationOutput<'analysis.trackRecord'>;

// ---- the port ----

/** Runs a declared operation by id with its parsed input (the server's registry, a REST client). */
export type OperationRunner = <K extends OperationId>(id: K, input: OperationInput<K>) => Promise<OperationOutput<K>>;

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
 * What the tools, resources and prompts run on: the runner of the declared operations (`OPERATIONS`
 * of @marketlens/contract), which of them it can run, and candle closes for subscriptions. A tool,
 * prompt or resource whose operation the backend cannot run is not listed, so a client never sees
 * one that cannot work (a REST backend has no route for the webhook operations).
 */
export interface Backend {
  /** Runs an operation; fails with the REST error code of the refusal (see the file's head). */
  run: OperationRunner;
  /** Whether {@link Backend.run} can run `id`. */
  runs(id: OperationId): boolean;
  /** Candle closes for resource subscriptions; without it resources are read but not followed. */
  live?: LiveBackend;
}

/** A {@link Backend.runs} for a backend that runs every declared operation (the server's). */
export const RUNS_EVERY_OPERATION = (_id: OperationId): boolean => true;
