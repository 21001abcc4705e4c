/**
 * Timeframes, spelled once. The wire spelling is `m5`, `h1`, `d1`, ...; every request also accepts
 * the spelling a person writes (`5m`, `1h`, `1d`, ...), in REST queries, MCP tool arguments and the
 * CLI alike, and reads it as the wire one.
 */
import { z } from 'zod';

/** Timeframes of the analysis routes and the position analysis, wire spelling. */
export const TIMEFRAMES = ['m5', 'm15', 'm30', 'h1', 'h4', 'd1', 'w1'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

/** The timeframe served when a request names none (the free one). */
export const DEFAULT_TIMEFRAME: Timeframe = 'd1';

/** Timeframes of the signal list, wire spelling. */
export const SIGNAL_TIMEFRAMES = ['h1', 'm15', 'd1'] as const;
export type SignalTimeframe = (typeof SIGNAL_TIMEFRAMES)[number];

/** Every timeframe some alert kind accepts (`/v2/config` `alerts.kinds[].timeframes` says which kind takes which). */
export const NOTIFICATION_TIMEFRAMES = ['m5', 'm15', 'm30', 'h1', 'h4', 'h12', 'd1', 'd3', 'w1'] as const;
export type NotificationTimeframe = (typeof NOTIFICATION_TIMEFRAMES)[number];

/** Any timeframe of the contract, wire spelling. */
export type AnyTimeframe = Timeframe | NotificationTimeframe;

/** The spelling a person writes, per wire timeframe (`1h` is `h1`). */
export const TIMEFRAME_ALIASES: Readonly<Record<string, AnyTimeframe>> = {
  '5m': 'm5',
  '15m': 'm15',
  '30m': 'm30',
  '1h': 'h1',
  '4h': 'h4',
  '12h': 'h12',
  '1d': 'd1',
  '3d': 'd3',
  '1w': 'w1',
};

/** The wire spelling of `value` (either spelling), or null when it names no timeframe of `allowed`. */
export function timeframeOf<const T extends readonly AnyTimeframe[]>(value: string, allowed: T): T[number] | null {
  const wire = TIMEFRAME_ALIASES[value] ?? value;
  return (allowed as readonly string[]).includes(wire) ? (wire as T[number]) : null;
}

/**
 * A request timeframe of `allowed` in either spelling, parsed to the wire spelling. The published
 * schema lists both spellings.
 */
export function timeframeSchema<const T extends readonly AnyTimeframe[]>(allowed: T) {
  const spelled = Object.entries(TIMEFRAME_ALIASES)
    .filter(([, tf]) => (allowed as readonly string[]).includes(tf))
    .map(([alias]) => alias);
  const values: [string, ...string[]] = [allowed[0], ...spelled, ...allowed.slice(1)];
  return z
    .enum(values)
    .transform((v) => (TIMEFRAME_ALIASES[v] ?? v) as T[number])
    .describe(`Timeframe: ${spelled.join(', ')} (also spelled ${allowed.join(', ')})`);
}
