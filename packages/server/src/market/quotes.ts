import type { FundingRate, Market, MarketData, Ticker, VenueSummary } from '@marketlens/exchanges';

/** One market of the venue with its ticker, and its funding when it is a perpetual. */
export interface MarketQuote {
  market: Market;
  ticker: Ticker;
  funding: FundingRate | null;
}

/** Every quote of the venue at one moment, by asset too. */
export interface VenueSnapshot {
  venue: string;
  /** Clock time it was read (ms). */
  at: number;
  quotes: MarketQuote[];
  byAsset: ReadonlyMap<string, MarketQuote[]>;
}

/** A venue's summary with the quotes of its tracked markets, read for the exchange catalog. */
export interface VenueRead {
  summary: VenueSummary | null;
  snapshot: VenueSnapshot | null;
}

/** A venue opened for its catalog entry, and its last read. */
export interface CatalogVenue {
  market: Promise<MarketData>;
  read?: { at: number; value: Promise<VenueRead> };
}
