/**
 * @marketlens/core: exact, fast technical-analysis kernels (batch and streaming) and the
 * marketlens analysis engine. Pure and synchronous: candles in, numbers out.
 */

export { type Analysis, type AnalysisLevels, type AnalyzeOptions, analyze } from './analyze.js';
export { AssessmentError, type AssessmentErrorReason } from './assessment-error.js';
export { InputError, type InputErrorCode } from './errors.js';
export {
  FEAR_GREED_HISTORY,
  FEAR_GREED_WEIGHTS,
  FEAR_GREED_ZONES,
  type FearGreed,
  type FearGreedComponent,
  type FearGreedComponentName,
  type FearGreedOptions,
  type FearGreedUnavailable,
  type FearGreedZone,
  fearGreed,
  fearGreedZone,
} from './feargreed/fear-greed.js';
export {
  ANALYSIS_HISTORY,
  type AnalysisHistory,
  analysisHistory,
  type HistoryOutput,
  LEVELS_HISTORY,
} from './history/history.js';
// Indicators
export { AD, ad } from './indicators/ad.js';
export { ADOsc, type AdOscOptions, adOsc } from './indicators/adosc.js';
export { ADX, type AdxOptions, adx } from './indicators/adx.js';
export { AO, type AoOptions, ao } from './indicators/ao.js';
export { Aroon, type AroonOptions, type AroonOutput, type AroonValue, aroon } from './indicators/aroon.js';
export { ATR, type AtrOptions, type AtrSmoothing, atr } from './indicators/atr.js';
export { BBands, type BBandsOptions, type BBandsOutput, type BBandsValues, bbands } from './indicators/bbands.js';
export { CCI, type CciOptions, cci } from './indicators/cci.js';
export { CMF, type CmfOptions, cmf } from './indicators/cmf.js';
export { DEMA, type DemaOptions, dema } from './indicators/dema.js';
export { DMI, type DmiOptions, type DmiOutput, type DmiValues, dmi } from './indicators/dmi.js';
export {
  Donchian,
  type DonchianOptions,
  type DonchianOutput,
  type DonchianValues,
  donchian,
} from './indicators/donchian.js';
export { EMA, type EmaOptions, ema } from './indicators/ema.js';
export { Fractals, type FractalsOptions, type FractalsResult, fractals } from './indicators/fractals.js';
export { HMA, type HmaOptions, hma } from './indicators/hma.js';
export { Ichimoku, type IchimokuOptions, type IchimokuResult, ichimoku } from './indicators/ichimoku.js';
export type { Convention } from './indicators/internal/choice.js';
export type { WithLookback } from './indicators/internal/define.js';
export { Keltner, type KeltnerOptions, type KeltnerOutput, type KeltnerValues, keltner } from './indicators/keltner.js';
export { LinRegSlope, type LinRegSlopeOptions, linRegSlope } from './indicators/linreg-slope.js';
export { MACD, type MacdOptions, type MacdOutput, type MacdValue, macd } from './indicators/macd.js';
export { MFI, type MfiOptions, mfi } from './indicators/mfi.js';
export { Mom, type MomOptions, mom } from './indicators/mom.js';
export { NATR, type NatrOptions, natr } from './indicators/natr.js';
export { OBV, obv } from './indicators/obv.js';
export {
  type CamarillaLevels,
  type PivotCandles,
  type PivotLevels,
  type PivotMethod,
  type PivotOptions,
  PivotPoints,
  pivotPoints,
} from './indicators/pivots.js';
export { RMA, type RmaOptions, rma } from './indicators/rma.js';
export { ROC, type RocOptions, roc } from './indicators/roc.js';
export { RSI, type RsiOptions, rsi } from './indicators/rsi.js';
export { SAR, type SarOptions, sar } from './indicators/sar.js';
export { SMA, type SmaOptions, sma } from './indicators/sma.js';
export { StdDev, type StdDevOptions, stdDev } from './indicators/stddev.js';
export { Stoch, type StochOptions, type StochOutput, type StochValue, stoch } from './indicators/stoch.js';
export {
  StochRSI,
  type StochRsiOptions,
  type StochRsiOutput,
  type StochRsiValue,
  stochRsi,
} from './indicators/stoch-rsi.js';
export type { Stream } from './indicators/stream.js';
export {
  SuperTrend,
  type SuperTrendOptions,
  type SuperTrendOutput,
  type SuperTrendValues,
  superTrend,
} from './indicators/supertrend.js';
export { TEMA, type TemaOptions, tema } from './indicators/tema.js';
export { TrueRange, type TrueRangeOptions, trueRange } from './indicators/true-range.js';
export { UltOsc, type UltOscOptions, ultOsc } from './indicators/ultosc.js';
export { VWAP, type VwapAnchor, type VwapCandles, type VwapOptions, vwap } from './indicators/vwap.js';
export { VWMA, type VwmaOptions, vwma } from './indicators/vwma.js';
export { WillR, type WillROptions, willr } from './indicators/willr.js';
export { WMA, type WmaOptions, wma } from './indicators/wma.js';
export { type RangeExtremes, WEEKS_52_MS } from './levels/range.js';
// Analysis engine
export { findSwings, type Swing, type SwingOptions, type ZigzagOptions, zigzag } from './levels/swings.js';
export {
  type VolumeBin,
  type VolumeProfile,
  type VolumeProfileOptions,
  volumeProfile,
} from './levels/volume-profile.js';
export { type PriceBand, type ZoneContext, type ZoneDistance, zoneContext } from './levels/zone-context.js';
export {
  type NearestLevel,
  type SupportResistance,
  type SupportResistanceOptions,
  supportResistance,
  ZONE_SOURCES,
  type Zone,
  type ZoneSource,
} from './levels/zones.js';
export {
  type Fact,
  type FactId,
  type FactValue,
  type OverviewInput,
  type OverviewMarket,
  overviewFacts,
} from './overview/facts.js';
export {
  defaultTickSize,
  type FactFormat,
  formatLocalized,
  formatPrice,
  roundToTick,
  tickDecimals,
} from './overview/format.js';
export {
  formatFactValue,
  OVERVIEW_LOCALES,
  type OverviewLocale,
  renderOverview,
  resolveLocale,
} from './overview/render.js';
export { COST_MODELS, type CostModel, type RoundTripCostInput, roundTripCostPct } from './plan/costs.js';
export {
  buildPlan,
  type Direction,
  type EntryType,
  OBSTACLE_MIN_TOUCHES,
  type PlanOptions,
  type PlanReason,
  type TakeProfit,
  type TradePlan,
} from './plan/plan.js';
export type { AssetClass, AssetRef } from './portfolio/asset.js';
export { type Balance, type BalanceInput, type BalanceSheet, normalizeBalances } from './portfolio/balances.js';
export {
  type FillInput,
  type OrderExtended,
  type OrderSide,
  ordersFromFills,
  type Trade,
  tradesFromFills,
} from './portfolio/orders.js';
export {
  type ContractType,
  normalizePosition,
  normalizePositions,
  type PositionExtended,
  type PositionInput,
} from './portfolio/positions.js';
export { type PortfolioTotals, portfolioTotals } from './portfolio/totals.js';
export {
  type AssessedPosition,
  type AssessmentInput,
  type AssessmentOptions,
  assessPosition,
  type Excursion,
  type InvalidationDistance,
  type LevelDistance,
  type LiquidationRisk,
  type NearestLevels,
  type PlanGeometry,
  POSITION_WARNINGS,
  type PositionAssessment,
  type PositionTiming,
  type PositionWarning,
  type PublishedAtEntry,
  type PublishedPlanRecord,
  type ReferencePlan,
  type ReferencePlanSource,
  type StopPlacement,
  type ThesisStatus,
} from './position/assessment.js';
export {
  hitRateInterval,
  type MeanInterval,
  maxDrawdownR,
  meanInterval,
  type RecordStats,
  type RecordTrade,
  recordStats,
  studentT,
} from './record/stats.js';
export {
  outOfSampleSince,
  WALK_FORWARD_WARMUP,
  type WalkForward,
  type WalkForwardCall,
  type WalkForwardOptions,
  walkForward,
} from './record/walk-forward.js';
export {
  REGIME_HISTORY,
  REGIME_PHASES,
  type Regime,
  type RegimeOptions,
  type RegimePhase,
  type RegimeSeries,
  type RegimeTransition,
  regime,
  regimeSeries,
  regimeTransitions,
  type SwingStructure,
} from './regime/regime.js';
export {
  CANDLE_PATTERNS,
  type CandlePattern,
  type OHLC,
  PATTERNS_HISTORY,
  type PatternOptions,
  patternsAt,
} from './screeners/patterns.js';
export {
  type BreakoutHit,
  type BreakoutOptions,
  detectBreakout,
  detectOversold,
  detectVolumeSurge,
  type OversoldHit,
  type OversoldOptions,
  type PriceZone,
  runScreeners,
  type ScreenerAsset,
  type ScreenerOptions,
  type ScreenerResult,
  type VolumeSurgeHit,
  type VolumeSurgeOptions,
} from './screeners/screeners.js';
export {
  checkSignalControls,
  filterSignals,
  NEAR_ZONE_ATR,
  parseSignalControls,
  type RowTrend,
  SIGNAL_CONTROLS,
  SIGNAL_SORTS,
  type SignalControlName,
  type SignalControlSpec,
  type SignalControls,
  type SignalRow,
  type SignalRowOptions,
  type SignalSort,
  signalRow,
} from './screeners/signal-list.js';
export {
  breakEvenOf,
  type CalibrationKnot,
  type CalibrationProvenance,
  type CalibrationSample,
  calibrate,
  calibratePlan,
  type FamilyCalibration,
  type FitCalibrationOptions,
  fitCalibration,
  fitGeometryCalibration,
  type GeometryCalibration,
  type GeometryKnot,
  geometryBaseRate,
  geometryLogOdds,
  type SignalCalibration,
  type SignalEvidence,
  signalEvidence,
  TIMEFRAME_FAMILIES,
  type TimeframeFamily,
  timeframeFamily,
} from './signal/calibration.js';
export {
  EDGE_INTERVAL_LEVEL,
  type PlanEdge,
  type ProbabilityInterval,
  planEdge,
  probabilityInterval,
} from './signal/calibration-edge.js';
export { SIGNAL_CALIBRATION } from './signal/calibration-table.js';
export {
  type ContextInput,
  computeContext,
  type DmiColumns,
  IndicatorContext,
  type KD,
  type MacdColumns,
} from './signal/context.js';
export {
  type DeclinedPlan,
  SIGNAL_FACTORS,
  SIGNAL_HISTORY,
  SIGNAL_MIN_EDGE,
  SIGNAL_MIN_EXPECTED_R,
  SIGNAL_WEIGHTS,
  type Signal,
  type SignalAction,
  type SignalEdge,
  type SignalFactor,
  type SignalFactorName,
  type SignalOptions,
  signal,
} from './signal/signal.js';
export { type IndicatorSnapshot, indicatorSnapshot, type SnapshotOptions } from './signal/snapshot.js';
export {
  type RatingGroup,
  type RatingLabel,
  type RatingVote,
  ratingLabel,
  TECHNICAL_RATING_HISTORY,
  type TechnicalRating,
  type TechnicalRatingOptions,
  technicalRating,
} from './signal/technical-rating.js';
export {
  type PlanOutcome,
  type PlanSimulation,
  type SimulatedLeg,
  type SimulateOptions,
  simulatePlan,
} from './simulation/simulate.js';
export type { Candle, CandleColumns, CandleLike, Candles, CV, HL, HLC, HLCV } from './types.js';
