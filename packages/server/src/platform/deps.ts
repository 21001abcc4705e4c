import type { AccountData, CcxtVenueId, MarketData, VenueCredentials } from '@marketlens/exchanges';
import type { Caller } from '../auth/caller.js';
import type { SessionCache } from '../auth/session-cache.js';
import type { NewsSource } from '../market/news/news.js';
import type { Storage } from '../storage/types.js';
import type { AppState } from './app-state.js';
import type { SharedState } from './redis/shared-state.js';

export interface ServerConfig {
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty: the socket decides. */
  trustedProxies: readonly string[];
  /** Mobile builds below this version fail the supported-client check (unless a valid API key). */
  minClientVersion: string;
  /**
   * The per-client budget: `limit` units per `windowMs`. A client is an IPv4 address or an IPv6
   * prefix of `ipv6Prefix` bits (default 64), for the connection cap too.
   */
  rateLimit: { limit: number; windowMs: number; ipv6Prefix?: number };
  /** OAuth clients one account may have approved (default `MAX_CLIENTS_PER_ACCOUNT`, 25); tests of the protocol raise it. */
  oauthClientsPerAccount?: number;
  /** News feeds (`GET /v1/news/`): RSS or Atom, by URL or file path, fetched in the background. */
  news: { feeds: readonly string[]; refreshMs: number; timeoutMs: number };
  /** An OpenAI-compatible endpoint that rewrites the overview narrative; null: the facts' text only. */
  overviewLlm: OverviewLlmConfig | null;
  /** The background sync of connected exchange accounts (services/sync). */
  sync: SyncConfig;
  /**
   * Affiliate volume threshold, USD: 30-day volume on affiliate exchanges at or above it qualifies
   * (`GET /v1/promotions/volume`, affiliate Elite, pilot eligibility). Env
   * `MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD`; absent: 10,000.
   */
  affiliateVolumeThresholdUsd?: number;
  /** Web Push (services/push); absent: generated VAPID keys kept in storage, https endpoints only. */
  push?: PushConfig;
  /** The pilot and the publishing/outcome job (services/pilot); absent: `DEFAULT_PILOT_CONFIG`. */
  pilot?: import('../pilot/config.js').PilotConfig;
  /**
   * The public base URL of this server (`https://api.example.com`), when it is not the origin the
   * requests arrive on (behind a TLS proxy): the OAuth issuer and the audience of `/mcp` tokens.
   * Absent: the origin of each request whose Host is a loopback name or the address the connection
   * arrived on; other Hosts are refused on OAuth and `/mcp` (see `baseUrlOf`).
   */
  publicUrl?: string;
  /**
   * Browser origins, besides the public origin, whose pages may call `/mcp` (`https://app.example`).
   * A request with any other `Origin` header is refused; requests without one (non-browser clients) pass.
   */
  mcpAllowedOrigins?: readonly string[];
  /** Round-trip costs of published plans per asset class and venue (`MARKETLENS_PLAN_COSTS`); absent: core's `COST_MODELS`. */
  planCosts?: readonly import('../analysis/plan-costs.js').PlanCostOverride[];
  /**
   * Floor of a call's expected R after costs at the lower end of its interval
   * (`MARKETLENS_SIGNAL_MIN_EXPECTED_R`, -100..100); absent: core's `SIGNAL_MIN_EXPECTED_R` (0).
   */
  signalMinExpectedR?: number;
  /**
   * Time between two runs of the backtest record's job (`MARKETLENS_BACKTEST_INTERVAL_MS`, default an
   * hour from the environment); absent or 0: the job is not scheduled and the backtest stays pending.
   */
  backtestIntervalMs?: number;
  /** Bulkhead of a real venue read through `connection` (in flight, waiting, timeout); absent: the defaults. */
  venueLimits?: import('../market/venue-guard.js').VenueLimits;
  /**
   * Whether addresses must be verified (`MARKETLENS_EMAIL_VERIFICATION`; on in production): sign-up
   * then opens no session and answers alike for taken addresses, unverified accounts cannot sign in,
   * and creating API keys, connections or alerts needs a verified address. Absent: not required.
   */
  emailVerification?: boolean;
  /** The mail of accounts (`MARKETLENS_SMTP_URL`, `MARKETLENS_MAIL_FROM`); absent: written to the log. */
  mail?: import('../auth/verification/mailer.js').MailConfig;
  /** Periods and bounds of the live streams (`GET /v2/stream`) over their defaults (benchmarks, tests). */
  live?: Partial<import('../live/options.js').LiveTuning>;
}

/** Web Push delivery settings. */
export interface PushConfig {
  /** VAPID keys (env `MARKETLENS_VAPID_PUBLIC_KEY` / `_PRIVATE_KEY` / `_SUBJECT`); null: generated once, kept in storage. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /** Accept `http://` subscription endpoints (a local push service in tests); real push services are https. */
  allowInsecureEndpoints: boolean;
}

/** How connected accounts are synced. */
export interface SyncConfig {
  /** Time between two syncs of one connection after a success. */
  intervalMs: number;
  /** How often the scheduler looks for due connections. */
  pollMs: number;
  /** Connections synced at the same time, at most. */
  concurrency: number;
  /** A venue call slower than this fails the sync with a timeout (and backs off). */
  callTimeoutMs: number;
  /** Backoff after failures: base delay, doubled per consecutive failure (with jitter) up to the cap. */
  backoffBaseMs: number;
  backoffMaxMs: number;
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
  rateLimit: { limit: 2000, windowMs: 60_000, ipv6Prefix: 64 },
  news: { feeds: [], refreshMs: 5 * 60_000, timeoutMs: 10_000 },
  overviewLlm: null,
  sync: {
    intervalMs: 5 * 60_000,
    pollMs: 5_000,
    concurrency: 4,
    callTimeoutMs: 30_000,
    backoffBaseMs: 30_000,
    backoffMaxMs: 60 * 60_000,
  },
};

export interface AppDeps {
  storage: Storage;
  /**
   * What this app keeps for its life besides its storage: caches, the venues it opened, work in
   * flight (see `stateOf`); made on first use when absent. Never shared between apps.
   */
  state?: AppState;
  /** State shared by every instance through Redis (`redis.url`); absent: kept in this process. */
  shared?: SharedState;
  config: ServerConfig;
  /** The clock, injectable for tests (epoch ms). */
  now: () => number;
  /** Resolved sessions, briefly (createApp gives each app its own when absent; none: always storage). */
  sessionCache?: SessionCache;
  /**
   * Admission of `/mcp` messages, fair between client addresses (`mcp/fair-gate.ts`); absent: the
   * route makes one with `MCP_FAIRNESS` on first use.
   */
  mcpGate?: import('../mcp/fair-gate.js').FairGate;
  /** Where market data comes from; absent: the simulated venue on the real clock (see `marketOf`). */
  market?: MarketData;
  /**
   * Opens a real venue named by a `connection` query, once per app and venue;
   * absent: `createCcxtMarketData({ venue })`. Tests pass a simulated venue (or one that fails).
   */
  marketFor?: (venue: CcxtVenueId) => MarketData | Promise<MarketData>;
  /** The news cache `GET /v1/news/` reads; absent: no news (an empty list). */
  news?: NewsSource;
  /** Uniform random numbers in [0, 1) (campaign order); absent: `Math.random`. Tests inject a seeded one. */
  random?: () => number;
  /**
   * The AES-256-GCM key (32 bytes) connection credentials are encrypted with; absent: a random key
   * for this app's lifetime (tests, in-memory storage). server.ts passes the configured one.
   */
  credentialsKey?: Uint8Array;
  /**
   * The key credentials were encrypted with before a rotation (`MARKETLENS_SECRET_KEY_PREVIOUS`):
   * a stored blob that does not open with {@link credentialsKey} is tried with it, until
   * `marketlens admin key rotate` has re-encrypted every one.
   */
  previousCredentialsKey?: Uint8Array;
  /**
   * Opens the private data of a stored connection with its decrypted credentials; absent: the
   * simulated venue's demo account, or a ccxt client (`createCcxtAccountData`). Tests point ccxt at
   * a local venue server here.
   */
  accountFor?: (connection: AccountConnection, credentials: VenueCredentials) => AccountData | Promise<AccountData>;
  /**
   * Checks credentials against the venue before they are stored; absent: `verifyCcxtCredentials`
   * for ccxt venues, nothing for the simulated venue. Rejects with a `VenueError`.
   */
  verifyCredentials?: (venue: string, credentials: VenueCredentials) => Promise<void>;
  /** Asks the background sync to sync a connection now (after it is created); absent: it waits for its turn. */
  requestSync?: (connectionId: string) => void;
  /** Sends one Web Push request (services/push); absent: `fetch`. */
  pushTransport?: import('../alerts/push/transport.js').PushTransport;
  /** Whether a user may spectate the pilot; absent: the volume standing of services/promotions/eligibility. */
  isPilotEligible?: (userId: string) => Promise<boolean>;
  /** Sends the mail of accounts (verification links); absent: the log (see `config.mail`). */
  mailer?: import('../auth/verification/mailer.js').Mailer;
  /** The pilot's collaborators (the `pilot_trade` callback); absent: no push on a new pilot trade. */
  pilot?: import('../pilot/config.js').PilotDeps;
}

/** What opening a connection's account needs to know about it. */
export interface AccountConnection {
  /** The user_connection_id. */
  id: string;
  user_id: string;
  /** The exchange id. */
  venue: string;
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
export type { Caller };

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    clientIp: string;
    client: ClientInfo;
    caller: Caller;
    /** This request's id (`x-request-id`), when the server observes requests (production logs, metrics). */
    requestId: string;
    /**
     * The rate limit's verdict still on its way from Redis, on an operation that overlaps it with
     * its own work (see `admitted` in platform/pipeline.ts); undefined once decided.
     */
    admission: Promise<void> | undefined;
  };
}

/**
 * Who asks a use case, and how: the caller (resolved credentials and tier), the client (its
 * platform and version, for the gates that depend on them) and, on a route whose rate limit is
 * decided while it works, the wait for that verdict. REST builds it from the request
 * (`actorOf`), MCP from the token's user (`MCP_CLIENT`, nothing to wait for).
 */
export interface Actor {
  caller: Caller;
  client: ClientInfo;
  /**
   * The rate limit's verdict still on its way (a speculative route); a use case awaits it before
   * any write or expensive work, so a refused request changes nothing. Absent: already decided.
   */
  admitted?: () => Promise<void> | undefined;
}
