import type { MarketData } from '@marketlens/exchanges';
import type { Storage, Tier, UserRecord } from '../storage/types.js';
import type { AppState } from './app-state.js';
import type { SharedState } from './redis/shared-state.js';

declare global {
  /**
   * What the features add to the server's configuration and collaborators. Each feature declares
   * its own slice in its `config.ts`, the way Express's `Express.Request` is extended:
   *
   *     declare global { namespace MarketlensServer { interface Config { pilot?: PilotConfig } } }
   *
   * so `platform/` names no feature, and {@link ServerConfig} and {@link AppDeps} are the union of
   * the slices. A global namespace, not `declare module '../platform/deps.js'`: the bundled
   * declaration file (tsup) keeps a global augmentation but drops a relative module's.
   */
  namespace MarketlensServer {
    // Empty here: filled by the features' config.ts (declaration merging).
    interface Config {}
    interface Deps {}
  }
}

/**
 * The public members of a class, as a structural type. A slot of {@link MarketlensServer.Deps} that
 * holds a class instance names it through this: a class with private fields is a different type in
 * the ESM and the CommonJS declaration files of the package, and a consumer that reads both (an
 * `.mts` and a `.cts` file in one program) would see the global slot declared twice with two types.
 */
export type PublicShape<T> = { [K in keyof T]: T[K] };

/**
 * The server's configuration: what the platform reads (proxies, the client gate, the rate limit,
 * the public URL) and each feature's slice ({@link MarketlensServer.Config}, declared in the
 * feature's `config.ts`).
 */
export interface ServerConfig extends MarketlensServer.Config {
  /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty: the socket decides. */
  trustedProxies: readonly string[];
  /** Mobile builds below this version fail the supported-client check (unless a valid API key). */
  minClientVersion: string;
  /**
   * The per-client budget: `limit` units per `windowMs`. A client is an IPv4 address or an IPv6
   * prefix of `ipv6Prefix` bits (default 64), for the connection cap too.
   */
  rateLimit: { limit: number; windowMs: number; ipv6Prefix?: number };
  /**
   * The public base URL of this server (`https://api.example.com`), when it is not the origin the
   * requests arrive on (behind a TLS proxy): the OAuth issuer and the audience of `/mcp` tokens.
   * Absent: the origin of each request whose Host is a loopback name or the address the connection
   * arrived on; other Hosts are refused on OAuth and `/mcp` (see `baseUrlOf`).
   */
  publicUrl?: string;
}

/**
 * The configuration an embedded app or a test starts from: the platform's defaults and those of
 * the feature slices that are not optional (news, the overview rewrite, the account sync).
 * `optionsFromEnv` (config/server-env.ts) builds on it.
 */
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

/**
 * What an app is made of: its storage, state, configuration and clock, the market it reads, and
 * each feature's collaborators ({@link MarketlensServer.Deps}, declared in the feature's `config.ts`).
 */
export interface AppDeps extends MarketlensServer.Deps {
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
  /** Where market data comes from; absent: the simulated venue on the real clock (see `marketOf`). */
  market?: MarketData;
  /** Uniform random numbers in [0, 1) (campaign order); absent: `Math.random`. Tests inject a seeded one. */
  random?: () => number;
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

/**
 * Who is calling: nobody, or a user through a session or an API key, with the tier they are served
 * at. Resolved per operation by auth's `authorize` middleware; the platform reads it (the rate
 * limit's client, the client-version gate's exemption), so the type is the platform's.
 */
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
  /**
   * The base URL the caller reached the service at, under which the links mailed for it are built
   * (REST: the public URL, or the request's own origin when it names this server; computed only
   * when a link is mailed). Absent: the configured public URL.
   */
  baseUrl?: () => string;
}
