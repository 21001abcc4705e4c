/**
 * @marketlens/exchanges: where market and account data come from. Ports (`MarketData`,
 * `AccountData`), the deterministic simulated venue (the embedded default), real venues through
 * ccxt (loaded lazily), candle files, and the asset universe with instrument mapping.
 */

export {
  calendarOf,
  countGaps,
  describeSpacing,
  type MarketCalendar,
  mayTrade,
  measuredSpacing,
  type SessionTemplate,
  seenUntil,
  sessionTemplate,
} from './calendar.js';
export {
  CATALOG_SOURCE_VERSION,
  type CatalogMethod,
  EXCHANGE_CATALOG,
  type ExchangeCatalogEntry,
  exchangeCatalogEntry,
  type GuideSource,
} from './catalog/catalog.js';
export {
  type CcxtAccountDataOptions,
  type CcxtOrderLevels,
  createCcxtAccountData,
  type ProtectiveLeg,
  protectiveLegs,
  verifyCcxtCredentials,
} from './ccxt/account-data.js';
export { type Capability, capability } from './ccxt/capability.js';
export type { CcxtClientOptions, CcxtMarket } from './ccxt/client.js';
export { checkVenueCredentials, isWalletAddress } from './ccxt/credentials.js';
export { type CcxtMarketDataOptions, createCcxtMarketData } from './ccxt/market-data.js';
export type { CcxtAdapterOptions } from './ccxt/session.js';
export { type CcxtSourceOptions, createCcxtSource } from './ccxt/source.js';
export {
  CCXT_VENUES,
  type CcxtVenueId,
  type CredentialField,
  isCcxtVenue,
  type VenueCredentials,
} from './ccxt/venues.js';
export { type ClosedSplit, type LiveCandle, splitClosed, splitSeries } from './closed.js';
export { VenueError, type VenueErrorCode, type VenueErrorOptions } from './errors.js';
export type { TimeUnit } from './files/builder.js';
export type { CsvFormat, CsvMapping } from './files/csv.js';
export { CandleFileError, type CandleFileErrorCode } from './files/errors.js';
export {
  type CandleFileFormat,
  type CandleImport,
  type CandleImportOptions,
  importCandleFile,
  importCandleStream,
} from './files/import.js';
export { type OpenMarketOptions, openMarket, openSource } from './open-market.js';
export {
  type AccountData,
  type AssetClass,
  type CandleRequest,
  type CandleSeries,
  candleOpenTime,
  type FillPage,
  type FillRequest,
  type FundingRate,
  type FundingSinceOpen,
  isTimeframe,
  type Market,
  type MarketData,
  type MarketRequest,
  type MarketType,
  type OrderSide,
  type PositionSide,
  type ProtectiveOrder,
  TIMEFRAME_MS,
  TIMEFRAMES,
  type Ticker,
  type Timeframe,
  type VenueBalance,
  type VenueFill,
  type VenuePosition,
  type VenueSummary,
  WEEK_OFFSET_MS,
} from './ports.js';
export {
  createSimulatedAccount,
  HISTORY_START,
  ROLL_MS,
  type SimulatedAccountOptions,
} from './simulated/account.js';
export { GENESIS as SIMULATED_GENESIS } from './simulated/model.js';
export {
  createSimulatedVenue,
  MAX_CANDLES,
  SIMULATED_VENUE_ID,
  type SimulatedVenue,
  type SimulatedVenueOptions,
} from './simulated/venue.js';
export {
  checkSources,
  parseSourceList,
  parseSourceName,
  SOURCE_FORMS,
  type SourceSpec,
  sourceName,
} from './source-spec.js';
export {
  createMarketSources,
  type MarketSources,
  type MarketSourcesOptions,
  type SourceStatus,
  universeOfListings,
} from './sources/composite.js';
export { createFilesSource, FILES_VENUE, FilesSourceError, type FilesSourceOptions } from './sources/files.js';
export {
  type BreakerState,
  type GuardedSource,
  guardSource,
  type SourceGuardOptions,
  type UpstreamCall,
} from './sources/guard.js';
export {
  emptyCandles,
  foldCandles,
  type RepairReport,
  repairCandles,
  repaired,
  sliceCandles,
} from './sources/repair.js';
export type { ListedAsset, MarketSource } from './sources/source.js';
export {
  type CandleStore,
  createMemoryCandleStore,
  type SeriesKey,
  type StoredSeries,
  seriesBytes,
} from './sources/store.js';
export { type StoredCandlesOptions, storedCandles } from './sources/stored.js';
export { createYahooSource, type YahooSourceOptions } from './sources/yahoo/index.js';
export { type Asset, type AssetDefinition, BUILTIN_ASSETS, toAsset } from './universe/assets.js';
export { iconFor } from './universe/icon.js';
export {
  createUniverse,
  defaultUniverse,
  getAsset,
  type InstrumentMatch,
  parseInstrument,
  resolveCurrency,
  resolveInstrument,
  type Universe,
} from './universe/universe.js';
