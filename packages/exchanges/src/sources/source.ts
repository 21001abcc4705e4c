/**
 * A market source: one configured place market data comes from (`ccxt:binance`, `yahoo`,
 * `files:/srv/candles`). It is a {@link MarketData} that also says which assets it serves, so a
 * composite of sources can build the asset universe from what is really listed.
 */
import type { MarketData } from '../ports.js';
import type { AssetDefinition } from '../universe/assets.js';

/** One asset a source serves, with its 24 h quote volume in USD for ranking (null: not known). */
export interface ListedAsset {
  definition: AssetDefinition;
  quote_volume_usd: number | null;
}

/** A {@link MarketData} that lists the assets it serves. */
export interface MarketSource extends MarketData {
  /** The source as configured: `ccxt:binance`, `yahoo`, `files:/srv/candles`. */
  readonly source: string;
  /** The assets this source serves now. Throws `VenueError` when the source cannot be read. */
  listAssets(): Promise<ListedAsset[]>;
  /**
   * Calls per second the source tolerates, when it spaces nothing itself (ccxt does, with each
   * venue's published limits; Yahoo does not). The composite's guard keeps to it.
   */
  readonly ratePerSecond?: number;
  /**
   * True when reads are local and cheap (a folder of files): the composite serves them directly
   * rather than through the candle store, so the series keeps what the source says of its data
   * (`seen_until`).
   */
  readonly local?: boolean;
}
