import type {
  CcxtVenueId,
  FundingRate,
  Market,
  MarketData,
  SimulatedVenue,
  Ticker,
  VenueSummary,
} from '@marketlens/exchanges';

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

/**
 * The venues one app opens on demand, each once for the app's life: real venues a `connection`
 * query names, venues read only for their exchange-catalog entry, and the simulated venue that
 * demo accounts read when the app's own market is real. Held by the app's deps
 * (`AppDeps.venues`), so two apps in one process never share them.
 */
export class OpenedVenues {
  /** Real venues named by a `connection` query, by id (a venue that failed to open is dropped). */
  readonly markets = new Map<CcxtVenueId, Promise<MarketData>>();
  /** Venues the app does not serve, opened for their catalog entry, by id. */
  readonly catalog = new Map<string, CatalogVenue>();
  /** The simulated venue of demo accounts, on the app's clock, once asked for. */
  simulated: SimulatedVenue | null = null;
}
