/**
 * What an alert kind is: one entry of the registry (`registry.ts`), one file per kind. A kind
 * says which candles it reads, how it is armed (the value it watches now, the way that value must
 * move), when a closed candle fires it, what it watches live, and the words of its push. What its
 * payload may hold (the target's range, the timeframes it takes) is the contract's, per kind
 * (`TARGET_RANGES`, `ALERT_KIND_WINDOWS`), where REST and MCP both read it.
 */
import type { AlertTimeframe, TargetRange } from '@marketlens/contract';
import { type Analysis, type AnalyzeOptions, analyze, type Candles } from '@marketlens/core';
import type { Asset, Ticker, Timeframe } from '@marketlens/exchanges';
import type { AppDeps } from '../../platform/deps.js';
import type { AlertDirection, AlertRecord } from '../../storage/alerts-types.js';

export type { AlertTimeframe, TargetRange };

/** The candles an alert is evaluated on, and how many closed candles before the first evaluated one it reads. */
export interface EvalWindow {
  timeframe: Timeframe;
  warmup: number;
}

/**
 * The candle whose close fired an alert and the value that fired it: the price level touched (price
 * and zone alerts), the close (breakout), the RSI, the % change or the % distance; and that candle's close.
 */
export interface AlertHit {
  candle_open: number;
  value: number;
  close: number;
}

/** A payload being armed: its asset and window, checked already, and what a kind may read to arm it. */
export interface Arming {
  deps: AppDeps;
  asset: Asset;
  evaluates_as: string | null;
  target: number;
  now: number;
  /** The asset's ticker now. */
  ticker(): Promise<Ticker>;
  /** The closed candles of the alert's analysis window. */
  closedCandles(): Promise<Candles>;
  /** The analysis of `candles` with the asset's options, or null when there is too little history. */
  analyze(candles: Candles): Analysis | null;
}

/** How an alert is armed: the watched value now (null: none to read), the way it must move, a zone's band. */
export interface Armed {
  reference: number | null;
  direction: AlertDirection;
  zone?: { low: number; high: number };
}

/**
 * The closed candles an alert is evaluated over (oldest first), from index `first`: the first one
 * after its last evaluation that closed after it was armed. Of the candle that was open at arming
 * only the close counts, so `high(i)` and `low(i)` are its close there.
 */
export interface Scan {
  alert: AlertRecord;
  candles: Candles;
  /** The asset's analysis options (kinds that read the published plan). */
  options: AnalyzeOptions | undefined;
  first: number;
  high(i: number): number;
  low(i: number): number;
  /** The hit of candle `i` with `value`. */
  hit(i: number, value: number): AlertHit;
  /**
   * The level a touch of `level` reached at candle `i`: `level` when the candle traded through it,
   * else (a gap past it, or the candle open at arming) the candle's price nearest to it.
   */
  touched(i: number, level: number): number;
}

/** The words of a fired alert's push; `caption` is the short window a client shows beside it (null: none). */
export interface AlertText {
  title: string;
  body: string;
  caption: string | null;
}

/** One alert kind: everything the service does that differs from one kind to another. */
export interface AlertKindSpec {
  /** The payload's rules, as the contract publishes them: the target's range and the timeframes taken. */
  payload: { target: TargetRange; timeframes: readonly AlertTimeframe[] };
  /** The candles it is evaluated on (see {@link EvalWindow}). */
  window(alert: Pick<AlertRecord, 'evaluates_as'>): EvalWindow;
  /** Arms a checked payload. */
  arm(arming: Arming): Promise<Armed>;
  /** The first candle of the scan whose close fires the alert, or null. Pure. */
  evaluate(scan: Scan): AlertHit | null;
  /** The watched value now, for an alert's listing (`ticker` read already). */
  live(deps: AppDeps, alert: AlertRecord, ticker: Ticker): Promise<number | null>;
  /** The push of a firing, for an asset named `assetName`. */
  text(alert: AlertRecord, assetName: string, hit: AlertHit): AlertText;
}

/** RSI period of RSI alerts. */
export const ALERT_RSI_PERIOD = 14;

/** Candles an alert's live figures and zones are read from. */
export const ALERT_DEPTH = 500;

/** The analysis window of a timeframe-reading kind (`m15`, `h1`, `d1`; h1 when it names none of them). */
export function analysisWindowOf(evaluatesAs: string | null): Timeframe {
  return evaluatesAs === 'm15' || evaluatesAs === 'h1' || evaluatesAs === 'd1' ? evaluatesAs : 'h1';
}

/**
 * The entry zone of the plan published as of candle `i` (with the analysis `options` of the asset,
 * see `analyzeOptionsOf`), or null (no trade, or too little history).
 */
export function entryZoneAt(
  candles: Candles,
  i: number,
  options?: AnalyzeOptions,
): { low: number; high: number } | null {
  try {
    return analyze(candles, { ...options, asOf: i }).zone.entry_zone;
  } catch {
    return null;
  }
}

/** The last value of a series, or null when there is none or it is NaN (still warming up). */
export function lastValue(values: ArrayLike<number>): number | null {
  const last = values.length > 0 ? values[values.length - 1] : Number.NaN;
  return Number.isNaN(last) ? null : last;
}
