import type { CcxtVenueId, MarketData } from '@marketlens/exchanges';
import type { NewsSource } from './news/news.js';
import type { VenueLimits } from './venue-guard.js';

// The market feature's slice of the server's configuration and collaborators (see `MarketlensServer` in platform/deps.ts).
declare global {
  namespace MarketlensServer {
    interface Config {
      /** News feeds (`GET /v1/news/`): RSS or Atom, by URL or file path, fetched in the background. */
      news: { feeds: readonly string[]; refreshMs: number; timeoutMs: number };
      /** Bulkhead of a real venue read through `connection` (in flight, waiting, timeout); absent: the defaults. */
      venueLimits?: VenueLimits;
    }
    interface Deps {
      /**
       * Opens a real venue named by a `connection` query, once per app and venue;
       * absent: `createCcxtMarketData({ venue })`. Tests pass a simulated venue (or one that fails).
       */
      marketFor?: (venue: CcxtVenueId) => MarketData | Promise<MarketData>;
      /** The news cache `GET /v1/news/` reads; absent: no news (an empty list). */
      news?: NewsSource;
    }
  }
}
