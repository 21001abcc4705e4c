/**
 * @marketlens/exchanges: where market and account data come from. Ports (`MarketData`,
 * `AccountData`), the deterministic simulated venue (the embedded default), real venues through
 * ccxt (loaded lazily), candle files, and the asset universe with instrument mapping.
 */
export { VenueError, type VenueErrorCode, type VenueErrorOptions } from './errors.js';
export type { TimeUnit } from './files/builder.js';
export type { CsvMapping } from './files/csv.js';
export { CandleFileError, type CandleFileErrorCode } from './files/errors.js';
export {
  type CandleFileFormat,
  type CandleImport,
  type CandleImportOptions,
  importCandleFile,
  importCandleStream,
} from './files/import.js';
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
  type SimulatedVenue,
  type SimulatedVenueOptions,
} from './simulated/venue.js';
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
