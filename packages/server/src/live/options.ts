/** The settings of the live streams, a leaf module (the server's configuration names them). */
import { STREAM_BUFFER_BYTES, STREAM_HEARTBEAT_MS, STREAM_RETENTION_MS } from '@marketlens/contract';

/** The settings of an app's live streams (the contract's values unless a test shortens them). */
export interface LiveOptions {
  /** Events kept for `Last-Event-ID` (at least 10 minutes in service). */
  retentionMs: number;
  /** Events kept at most, whatever their age. */
  maxEvents: number;
  /** Unsent bytes per stream before it is closed as slow. */
  bufferBytes: number;
  /** Heartbeat period; the credentials of open streams are checked on the same tick. */
  heartbeatMs: number;
  /** Period of the price poll (a price event at most this often per asset). */
  priceMs: number;
  /** Wait after a candle's end before it is read (a real venue publishes it a moment later). */
  settleMs: number;
  /** Wait before asking again when the venue has not published the closed candle yet ... */
  closeRetryMs: number;
  /** ... at most this many times (a market outside its session has no candle to close). */
  closeRetries: number;
  /** Warnings (a failed analysis, the cluster log away and back). */
  warn: (message: string) => void;
}

/** What a configuration may set of {@link LiveOptions} (`ServerConfig.live`). */
export type LiveTuning = Omit<LiveOptions, 'warn'>;

export const DEFAULT_LIVE_OPTIONS: LiveOptions = {
  retentionMs: STREAM_RETENTION_MS,
  maxEvents: 200_000,
  bufferBytes: STREAM_BUFFER_BYTES,
  heartbeatMs: STREAM_HEARTBEAT_MS,
  priceMs: 1_000,
  settleMs: 1_000,
  closeRetryMs: 2_000,
  closeRetries: 5,
  warn: (message) => console.error(`[marketlens] live: ${message}`),
};
