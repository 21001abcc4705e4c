import type { CcxtVenueId, MarketData } from '@marketlens/exchanges';
import { DEFAULT_CONFIG } from '../platform/deps.js';
import { type SettingsGroup, setting } from '../platform/settings.js';
import { EXAMPLE_NEWS_FEED, type NewsSource, parseFeedList } from './news/news.js';
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

/**
 * The market feature's settings: the news feeds (MARKETLENS_NEWS_FEEDS, a comma list of RSS/Atom
 * URLs or file paths; unset: the example feed shipped with the package, read from disk; empty: no
 * news). The market data sources themselves are the process's (config/settings.ts).
 */
export const MARKET_SETTINGS: SettingsGroup = {
  owner: 'market/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('newsFeeds', 'MARKETLENS_NEWS_FEEDS', 'list', 'the example feed', 'RSS/Atom URLs or file paths (empty: no news)'),
  ],
  read: (env) => ({
    news: {
      ...DEFAULT_CONFIG.news,
      feeds: env.MARKETLENS_NEWS_FEEDS === undefined ? [EXAMPLE_NEWS_FEED] : parseFeedList(env.MARKETLENS_NEWS_FEEDS),
    },
  }),
};
