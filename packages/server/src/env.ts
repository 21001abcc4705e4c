import type { CcxtVenueId, MarketData } from '@marketlens/exchanges';
import type { NewsSource } from './news/news.js';
import type { SessionCache } from './services/session-cache.js';
import type { Storage, Tier, UserRecord } from './storage/types.js';

export interface ServerConfig {
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty: the socket decides. */
  trustedProxies: readonly string[];
  /** Mobile builds below this version fail the supported-client check (unless a valid API key). */
  minClientVersion: string;
  rateLimit: { limit: number; windowMs: number };
  /** News feeds (`GET /v1/news/`): RSS or Atom, by URL or file path, fetched in the background. */
  news: { feeds: readonly string[]; refreshMs: number; timeoutMs: number };
  /** An OpenAI-compatible endpoint that rewrites the overview narrative; null: the facts' text only. */
  overviewLlm: OverviewLlmConfig | null;
}

export interface OverviewLlmConfig {
  /** Base URL; the request goes to `{baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** A rewrite slower than this is abandoned and the facts' text served. */
  timeoutMs: number;
}

export const DEFAULT_CONFIG: ServerConfig = {
  trustedProxies: [],
  minClientVersion: '3.0.0',
  rateLimit: { limit: 2000, windowMs: 60_000 },
  news: { feeds: [], refreshMs: 5 * 60_000, timeoutMs: 10_000 },
  overviewLlm: null,
};

export interface AppDeps {
  storage: Storage;
  config: ServerConfig;
  /** The clock, injectable for tests (epoch ms). */
  now: () => number;
  /** Resolved sessions, briefly (createApp gives each app its own when absent; none: always storage). */
  sessionCache?: SessionCache;
  /** Where market data comes from; absent: the simulated venue on the real clock (see `marketOf`). */
  market?: MarketData;
  /**
   * Opens a real venue named by a `connection` query (section 4.4), once per app and venue;
   * absent: `createCcxtMarketData({ venue })`. Tests pass a simulated venue (or one that fails).
   */
  marketFor?: (venue: CcxtVenueId) => MarketData | Promise<MarketData>;
  /** The news cache `GET /v1/news/` reads; absent: no news (an empty list). */
  news?: NewsSource;
}

export interface ClientInfo {
  platform: string | null;
  /** Parsed `x-app-version`, or null when absent or unreadable. */
  version: readonly [number, number, number] | null;
  /** An `ios` or `android` build. */
  mobile: boolean;
  /** Temporary gate: mobile builds below 3.9.30 (or of unknown version) get h1 free. */
  h1Free: boolean;
  /** Mobile builds below 3.9.26 receive the split positions/balances shape and tracked fills only. */
  legacyShapes: boolean;
}

/** Who is calling: resolved per operation by the `authorize` middleware. */
export type Caller =
  | { kind: 'anonymous' }
  | {
      kind: 'session' | 'api_key';
      user: UserRecord;
      /** Effective tier, or null when the subscription could not be read. */
      tier: Tier | null;
      tier_expires_at: number | null;
      api_key_id: string | null;
    };

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    clientIp: string;
    client: ClientInfo;
    caller: Caller;
  };
}
