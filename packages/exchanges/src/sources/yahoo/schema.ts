/**
 * The shape of Yahoo's chart API (`GET /v8/finance/chart/{symbol}`), as far as the source reads it.
 * Only the fields used are declared; Yahoo adds fields freely and those are ignored, not rejected.
 *
 * A success is `{chart: {result: [{meta, timestamp, indicators: {quote: [{open, high, low, close,
 * volume}]}}], error: null}}`; a range without trading omits `timestamp` and sends `quote: [{}]`;
 * gaps inside a series are `null` in every quote array. A failure is `{chart: {result: null,
 * error: {code: 'Not Found', description: 'No data found, symbol may be delisted'}}}` with the
 * matching HTTP status (404 unknown symbol, 422 intraday range beyond its history, 400 bad input).
 */
import { z } from 'zod';

/** A number Yahoo may leave out or send as null. */
const maybeNumber = z.number().nullish();

const tradingPeriod = z.object({ start: z.number() });

/** `chart.result[0].meta`: the instrument and its latest quote. */
export const chartMetaSchema = z.object({
  symbol: z.string(),
  /** `USD`; Yahoo writes sub-units in mixed case (`GBp` pence, `ZAc` cents); null for some indices. */
  currency: z.string().nullish(),
  /** `EQUITY`, `ETF`, `INDEX`, `CURRENCY`, ... */
  instrumentType: z.string().nullish(),
  /** IANA zone of the exchange (`America/New_York`), the zone daily bars are dated in. */
  exchangeTimezoneName: z.string().nullish(),
  /** Current offset of the exchange zone from UTC, seconds. */
  gmtoffset: maybeNumber,
  regularMarketPrice: maybeNumber,
  /** Time of `regularMarketPrice`, seconds since the epoch. */
  regularMarketTime: maybeNumber,
  /** Volume of the current (or last) session. */
  regularMarketVolume: maybeNumber,
  /** Close before the first bar of the chart's range. */
  chartPreviousClose: maybeNumber,
  /** Close of the previous session (sent for short ranges only). */
  previousClose: maybeNumber,
  longName: z.string().nullish(),
  shortName: z.string().nullish(),
  /** Today's sessions; intraday bars are laid on a grid that starts at `regular.start`. */
  currentTradingPeriod: z.object({ regular: tradingPeriod }).nullish(),
});

/** One quote array: a value per timestamp, null in gaps. */
const series = z.array(z.number().nullable());

/** `chart.result[0]`. */
export const chartResultSchema = z.object({
  meta: chartMetaSchema,
  /** Bar open times, seconds since the epoch; absent when the range holds no bar. */
  timestamp: z.array(z.number()).nullish(),
  indicators: z.object({
    quote: z.array(
      z.object({
        open: series.optional(),
        high: series.optional(),
        low: series.optional(),
        close: series.optional(),
        volume: series.optional(),
      }),
    ),
  }),
});

/** `chart.error`. */
export const chartErrorSchema = z.object({
  code: z.string(),
  description: z.string().nullish(),
});

/** A whole chart response body. */
export const chartBodySchema = z.object({
  chart: z.object({
    result: z.array(chartResultSchema).nullish(),
    error: chartErrorSchema.nullish(),
  }),
});

/** The instrument part of a chart response. */
export type ChartMeta = z.infer<typeof chartMetaSchema>;
/** One chart result: meta, bar times and quote arrays. */
export type ChartResult = z.infer<typeof chartResultSchema>;
/** Yahoo's error object. */
export type ChartError = z.infer<typeof chartErrorSchema>;
