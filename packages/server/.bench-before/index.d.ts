import { OpenAPIHono, z } from '@hono/zod-openapi';
import { MarketData } from '@marketlens/exchanges';
import { Context, MiddlewareHandler } from 'hono';
import * as _marketlens_core from '@marketlens/core';
import Database from 'better-sqlite3';

/**
 * The storage port. Every repository method is async so a PostgreSQL implementation can follow
 * the SQLite one without touching services. Times are epoch milliseconds; ids are UUIDs.
 */
declare const TIERS: readonly ["free", "pro", "elite"];
type Tier = (typeof TIERS)[number];
interface UserRecord {
    id: string;
    email: string;
    password_hash: string;
    /** The base tier an admin set; grants may raise the effective tier. */
    tier: Tier;
    created_at: number;
}
interface SessionRecord {
    id: string;
    user_id: string;
    token_hash: string;
    created_at: number;
    expires_at: number;
}
type GrantSource = 'promotion' | 'affiliate' | 'admin';
interface TierGrantRecord {
    id: string;
    user_id: string;
    tier: Tier;
    source: GrantSource;
    granted_at: number;
    expires_at: number;
}
interface ApiKeyRecord {
    id: string;
    user_id: string;
    name: string | null;
    /** The first characters of the key, shown in lists so a user can tell keys apart. */
    prefix: string;
    key_hash: string;
    created_at: number;
    expires_at: number | null;
    revoked_at: number | null;
    last_used_at: number | null;
}
interface UserRepository {
    /** Creates the user and its initial favorites atomically; null when the email is taken. */
    create(user: UserRecord, favorites: readonly string[]): Promise<UserRecord | null>;
    byId(id: string): Promise<UserRecord | null>;
    byEmail(email: string): Promise<UserRecord | null>;
    setTier(id: string, tier: Tier): Promise<boolean>;
}
interface SessionRepository {
    create(session: SessionRecord): Promise<void>;
    byTokenHash(tokenHash: string): Promise<SessionRecord | null>;
    deleteByTokenHash(tokenHash: string): Promise<boolean>;
    deleteExpired(now: number): Promise<number>;
}
interface TierGrantRepository {
    create(grant: TierGrantRecord): Promise<void>;
    /** Grants of the user that are still valid at `now`. */
    active(userId: string, now: number): Promise<TierGrantRecord[]>;
}
interface ApiKeyRepository {
    /** Inserts the key unless the user already holds `maxActive` active keys; false then. */
    createIfBelow(key: ApiKeyRecord, maxActive: number, now: number): Promise<boolean>;
    byHash(keyHash: string): Promise<ApiKeyRecord | null>;
    listByUser(userId: string): Promise<ApiKeyRecord[]>;
    /** Marks the key revoked (the row stays as the audit record); false when absent or revoked. */
    revoke(userId: string, id: string, now: number): Promise<boolean>;
    touch(id: string, now: number): Promise<void>;
}
interface ApiUsageRepository {
    /**
     * Counts one call of the user's day unless `limit` is reached. Returns the count after the
     * call, or null when the allowance was already used up.
     */
    consume(userId: string, day: string, limit: number): Promise<number | null>;
    used(userId: string, day: string): Promise<number>;
}
interface FavoriteRepository {
    add(userId: string, assetId: string, now: number): Promise<void>;
    remove(userId: string, assetId: string): Promise<void>;
    list(userId: string): Promise<string[]>;
    /** Assets by how many users favorite them, most first (ties by asset id); at most `limit`. */
    popular(limit: number): Promise<{
        asset_id: string;
        count: number;
    }[]>;
}
interface Storage {
    readonly users: UserRepository;
    readonly sessions: SessionRepository;
    readonly grants: TierGrantRepository;
    readonly apiKeys: ApiKeyRepository;
    readonly apiUsage: ApiUsageRepository;
    readonly favorites: FavoriteRepository;
    /** Schema version after migrations. */
    schemaVersion(): Promise<number>;
    close(): Promise<void>;
}

/** Admin: sets a user's base tier by email or id. Throws when no such user exists. */
declare function setUserTier(storage: Storage, emailOrId: string, tier: Tier): Promise<UserRecord>;
/** Admin: grants `tier` for `days` days (a promotion's 30 days of Pro, affiliate Elite, a courtesy grant). */
declare function grantUserTier(storage: Storage, emailOrId: string, tier: Tier, days: number, source?: GrantSource, now?: number): Promise<TierGrantRecord>;
declare const DEMO_EMAIL = "demo@marketlens.local";
interface DemoCredentials {
    email: string;
    password: string;
    session_token: string;
    api_key: string;
}
/**
 * Ensures the demo user exists and returns a fresh session token and API key for it.
 * The password is random per data folder run; the printed token is how one signs in.
 */
declare function seedDemo(storage: Storage, now?: number): Promise<DemoCredentials>;

/** A session token resolved to its caller (user and effective tier). */
type SessionCaller = Exclude<Caller, {
    kind: 'anonymous';
}>;
/**
 * Session token -> user and tier, for a short TTL, least recently used evicted first. Storage
 * stays the truth: entries live at most `ttlMs`, never past the session's or the grant's expiry,
 * and {@link forgetSession} / {@link forgetUser} (called by logout, tier changes and grants in
 * this process) drop them at once. Failures are never cached.
 */
declare class SessionCache {
    #private;
    readonly ttlMs: number;
    readonly max: number;
    constructor(ttlMs?: number, max?: number);
    get epoch(): number;
    get size(): number;
    get(token: string, now: number): SessionCaller | undefined;
    /** Stores a resolution begun at `epoch` (see {@link epoch}) unless something was invalidated since. */
    set(token: string, caller: SessionCaller, sessionExpiresAt: number, now: number, epoch: number): void;
    deleteToken(token: string): void;
    deleteUser(userId: string): void;
    clear(): void;
}

interface ServerConfig {
    /** Addresses of reverse proxies whose X-Forwarded-For is believed; empty: the socket decides. */
    trustedProxies: readonly string[];
    /** Mobile builds below this version fail the supported-client check (unless a valid API key). */
    minClientVersion: string;
    rateLimit: {
        limit: number;
        windowMs: number;
    };
}
declare const DEFAULT_CONFIG: ServerConfig;
interface AppDeps {
    storage: Storage;
    config: ServerConfig;
    /** The clock, injectable for tests (epoch ms). */
    now: () => number;
    /** Resolved sessions, briefly (createApp gives each app its own when absent; none: always storage). */
    sessionCache?: SessionCache;
    /** Where market data comes from; absent: the simulated venue on the real clock (see `marketOf`). */
    market?: MarketData;
}
interface ClientInfo {
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
type Caller = {
    kind: 'anonymous';
} | {
    kind: 'session' | 'api_key';
    user: UserRecord;
    /** Effective tier, or null when the subscription could not be read. */
    tier: Tier | null;
    tier_expires_at: number | null;
    api_key_id: string | null;
};
interface AppEnv {
    Variables: {
        deps: AppDeps;
        clientIp: string;
        client: ClientInfo;
        caller: Caller;
    };
}

/** Where unexpected errors go; the client only ever sees code 1 and a fixed message. */
type ErrorLogger = (err: unknown, c: Context) => void;

/** The version of the service the OpenAPI document reports (section 9). */
declare const SERVICE_VERSION = "2.10.55";
declare const OPENAPI_PATH = "/docs/openapi.json";
interface CreateAppOptions {
    logError?: ErrorLogger;
}
type App = OpenAPIHono<AppEnv>;
/** The REST app: platform middleware, the /v1 and /v2 routes, OpenAPI and /docs. */
declare function createApp(appDeps: AppDeps, options?: CreateAppOptions): App;

/** The success code of the envelope; failures carry a code of the error table instead. */
declare const SUCCESS_CODE = 0;
/** The success envelope of section 2.1 around `data`. */
declare function envelopeOf<T extends z.ZodType>(data: T, name?: string): z.ZodObject<{
    code: z.ZodUnion<readonly [z.ZodNumber, z.ZodString]>;
    success: z.ZodBoolean;
    data: T;
    message: z.ZodOptional<z.ZodNullable<z.ZodString>>;
}, z.core.$strip>;
declare const ErrorResponseSchema: z.ZodObject<{
    success: z.ZodLiteral<false>;
    code: z.ZodUnion<readonly [z.ZodNumber, z.ZodString]>;
    message: z.ZodString;
}, z.core.$strip>;
interface Envelope<T> {
    code: typeof SUCCESS_CODE;
    success: true;
    data: T;
    message: string | null;
}
/** Wraps a payload in the success envelope. */
declare function ok<T>(data: T, message?: string | null): Envelope<T>;

/**
 * The one table of error codes. Clients branch on `code`, never on `message`; a code once
 * published keeps its meaning. Numeric codes are the contract's (1, 1004, 1005); the string
 * codes are ours and the contract's `NotificationLimitExceeded`.
 */
declare const ERROR_CODES: {
    readonly GeneralError: {
        readonly code: 1;
        readonly status: 500;
    };
    readonly AnalysisTimeframeRestricted: {
        readonly code: 1004;
        readonly status: 402;
    };
    readonly AnalysisHistoryDepthRestricted: {
        readonly code: 1005;
        readonly status: 402;
    };
    readonly NotificationLimitExceeded: {
        readonly code: "NotificationLimitExceeded";
        readonly status: 402;
    };
    readonly InvalidRequest: {
        readonly code: "InvalidRequest";
        readonly status: 400;
    };
    readonly MalformedJson: {
        readonly code: "MalformedJson";
        readonly status: 400;
    };
    readonly ApiKeyInQuery: {
        readonly code: "ApiKeyInQuery";
        readonly status: 400;
    };
    readonly Unauthorized: {
        readonly code: "Unauthorized";
        readonly status: 401;
    };
    readonly InvalidSession: {
        readonly code: "InvalidSession";
        readonly status: 401;
    };
    readonly InvalidApiKey: {
        readonly code: "InvalidApiKey";
        readonly status: 401;
    };
    readonly ApiKeyNotAccepted: {
        readonly code: "ApiKeyNotAccepted";
        readonly status: 401;
    };
    readonly BearerNotAccepted: {
        readonly code: "BearerNotAccepted";
        readonly status: 401;
    };
    readonly InvalidCredentials: {
        readonly code: "InvalidCredentials";
        readonly status: 401;
    };
    readonly UnsupportedClientVersion: {
        readonly code: "UnsupportedClientVersion";
        readonly status: 403;
    };
    readonly StablecoinNotAnalyzed: {
        readonly code: "StablecoinNotAnalyzed";
        readonly status: 400;
    };
    readonly NotFound: {
        readonly code: "NotFound";
        readonly status: 404;
    };
    readonly UnknownAsset: {
        readonly code: "UnknownAsset";
        readonly status: 404;
    };
    readonly UnknownMarket: {
        readonly code: "UnknownMarket";
        readonly status: 404;
    };
    readonly UnknownExchange: {
        readonly code: "UnknownExchange";
        readonly status: 404;
    };
    readonly EmailAlreadyRegistered: {
        readonly code: "EmailAlreadyRegistered";
        readonly status: 422;
    };
    readonly ApiKeyLimitExceeded: {
        readonly code: "ApiKeyLimitExceeded";
        readonly status: 422;
    };
    readonly RateLimited: {
        readonly code: "RateLimited";
        readonly status: 429;
    };
    readonly ApiKeyAllowanceExceeded: {
        readonly code: "ApiKeyAllowanceExceeded";
        readonly status: 429;
    };
    readonly ServiceUnavailable: {
        readonly code: "ServiceUnavailable";
        readonly status: 503;
    };
};
/** Statuses the contract documents for failures (section 7). */
type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 410 | 422 | 429 | 500 | 503;
type ErrorName = keyof typeof ERROR_CODES;
type ErrorCode = (typeof ERROR_CODES)[ErrorName]['code'];
/**
 * A failure a route or service throws on purpose. The error handler turns it into an
 * `ErrorResponse` with the table's code and status; `headers` (e.g. `retry-after`) are added.
 */
declare class AppError extends Error {
    readonly code: ErrorCode;
    readonly status: ErrorStatus;
    readonly headers: Readonly<Record<string, string>>;
    constructor(name: ErrorName, message: string, headers?: Record<string, string>);
}

declare const RELEASE_FEED_PATH = "/releases.atom";

/** What an operation accepts. Declared once per route; drives both enforcement and OpenAPI. */
interface AuthSpec {
    session: boolean;
    apiKey: boolean;
    /** Readable without any credential (only `/v2/config`). */
    anonymous?: boolean;
}
declare const SESSION_ONLY: AuthSpec;
declare const SESSION_OR_API_KEY: AuthSpec;
declare const PUBLIC: AuthSpec;
declare const OPTIONAL_SESSION_OR_API_KEY: AuthSpec;
/**
 * Resolves the caller for one operation and refuses what the operation does not accept.
 * A credential that is sent but invalid is refused even where anonymous access is allowed,
 * so a client learns its token has expired. API-key calls are metered against the daily allowance.
 */
declare function authorize(spec: AuthSpec): MiddlewareHandler<AppEnv>;
/** The signed-in user of an operation that requires one (narrowing helper for handlers). */
declare function requireUser(caller: Caller): Extract<Caller, {
    kind: 'session' | 'api_key';
}>;

type Version = readonly [number, number, number];
declare function parseVersion(text: string | undefined | null): Version | null;
declare function compareVersions(a: Version, b: Version): number;
declare function clientInfo(platformHeader: string | undefined, versionHeader: string | undefined): ClientInfo;

/**
 * Weight of one request against the per-IP budget, by `METHOD path` (hono path syntax).
 * Routes not listed weigh {@link DEFAULT_WEIGHT}. Password routes are heavy because scrypt is.
 */
declare const RATE_LIMIT_WEIGHTS: Readonly<Record<string, number>>;

interface ServerOptions {
    port: number;
    host: string;
    dataDir: string;
    config: ServerConfig;
}
/** Reads PORT (8080), HOST (127.0.0.1), MARKETLENS_DATA_DIR (./data), MARKETLENS_TRUSTED_PROXIES, MARKETLENS_MIN_CLIENT_VERSION. */
declare function optionsFromEnv(env?: NodeJS.ProcessEnv): ServerOptions;
/** Opens the embedded SQLite storage in `dataDir` (created if missing). */
declare function openDataDir(dataDir: string): Storage;
interface RunningServer {
    app: App;
    storage: Storage;
    url: string;
    close(): Promise<void>;
}
/** Starts the HTTP server; resolves once it listens (port 0 picks a free port). Market data: the simulated venue unless given. */
declare function startServer(options: ServerOptions, storage?: Storage, market?: MarketData): Promise<RunningServer>;

/** Favorites every new account starts with (section 4.5). */
declare const DEFAULT_FAVORITES: readonly ["bitcoin", "ethereum", "solana"];

declare const MAX_ACTIVE_API_KEYS = 10;

/**
 * Product constants the config document publishes and the analysis, signal and alert routes
 * enforce. One table each, so `/v2/config` and the enforcement never disagree.
 */
declare const TIMEFRAMES: readonly ["m5", "m15", "m30", "h1", "h4", "d1", "w1"];
type Timeframe = (typeof TIMEFRAMES)[number];
declare const DEFAULT_TIMEFRAME: Timeframe;
/** Timeframes every caller may read; the rest need Pro (h1 aside for old mobile builds). */
declare const FREE_TIMEFRAMES: readonly Timeframe[];
/** Candle depth of a chart or analysis window: free callers up to `free`, Pro and Elite up to `pro`. */
declare const CHART_DEPTH: {
    readonly free: 500;
    readonly pro: 5000;
};
/** Timeframes the signal screener routes accept (`/v2/assets/signals*`); anything else is 400. */
declare const SIGNAL_TIMEFRAMES: readonly ["h1", "m15", "d1"];
interface AlertTimeframe {
    value: string;
    evaluates_as: string;
}
interface AlertKind {
    kind: string;
    /** Accepted request timeframes with the window each is evaluated over; [] reads none. */
    timeframes: AlertTimeframe[];
}
declare const ALERT_KINDS: readonly AlertKind[];

/** Whether `timeframe` needs Pro for this client (h1 is free for old mobile builds). */
declare function timeframeNeedsPro(timeframe: Timeframe, client: ClientInfo): boolean;
/** The `/v2/config` document for this caller and client. */
declare function configDocument(caller: Caller, client: ClientInfo): {
    analysis: {
        default_timeframe: "m5" | "m15" | "m30" | "h1" | "h4" | "d1" | "w1";
        timeframes: {
            value: "m5" | "m15" | "m30" | "h1" | "h4" | "d1" | "w1";
            needs_pro: boolean;
        }[];
    };
    chart_depth: {
        free: 500;
        pro: 5000;
    };
    signals: {
        timeframes: ("m15" | "h1" | "d1")[];
        controls: {
            name: keyof _marketlens_core.SignalControls;
            type: "number" | "boolean" | "enum" | "enum_list" | "range";
            values: string[] | null;
            min: number | null;
            max: number | null;
            default: string | null;
            description: string;
        }[];
        sorts: ("confidence_desc" | "confidence_asc" | "score_desc" | "score_asc" | "rsi_asc" | "rsi_desc" | "volume_z_desc" | "fear_greed_asc" | "fear_greed_desc" | "change_desc" | "change_asc")[];
    };
    alerts: {
        kinds: {
            kind: string;
            timeframes: {
                value: string;
                evaluates_as: string;
            }[];
        }[];
    };
    caller: {
        state: "anonymous";
        via: null;
        tier: "free";
        is_pro: boolean;
        is_elite: boolean;
        tier_expires_at: null;
    } | {
        state: "unavailable";
        via: "session" | "api_key";
        tier: null;
        is_pro: null;
        is_elite: null;
        tier_expires_at: null;
    } | {
        state: "authenticated";
        via: "session" | "api_key";
        tier: "free" | "pro" | "elite";
        is_pro: boolean;
        is_elite: boolean;
        tier_expires_at: string | null;
    };
};

/** Daily API-key allowance per tier (section 8). */
declare const API_KEY_DAILY_ALLOWANCE: Readonly<Record<Tier, number>>;
/** Length of the Pro grant a claimed promotion gives (section 8). */
declare const PROMOTION_PRO_DAYS = 30;
interface TierStanding {
    tier: Tier;
    /** The grant that lifts the user above the base tier, if any. */
    grant: TierGrantRecord | null;
}
/** The effective tier: the higher of the base tier and every grant still valid at `now`. */
declare function tierStanding(storage: Storage, userId: string, baseTier: Tier, now: number): Promise<TierStanding>;
/** Grants `tier` for `days` days from `now` (e.g. 30 days of Pro from a promotion, affiliate Elite). */
declare function grantTier(storage: Storage, userId: string, tier: Tier, source: GrantSource, days: number, now: number): Promise<TierGrantRecord>;

/** One schema step. Versions are applied in order, each in its own transaction, exactly once. */
interface Migration {
    version: number;
    name: string;
    sql: string;
}

type DB = Database.Database;
/** Applies the migrations the database has not seen yet; returns the resulting version. */
declare function migrate(db: DB, migrations?: readonly Migration[]): number;
/** The embedded default storage: one SQLite file (or `:memory:` for tests). */
declare function createSqliteStorage(filename: string): Storage & {
    readonly db: DB;
};

export { ALERT_KINDS, API_KEY_DAILY_ALLOWANCE, type ApiKeyRecord, type ApiKeyRepository, type ApiUsageRepository, type App, type AppDeps, type AppEnv, AppError, type AuthSpec, CHART_DEPTH, type Caller, type ClientInfo, type CreateAppOptions, DEFAULT_CONFIG, DEFAULT_FAVORITES, DEFAULT_TIMEFRAME, DEMO_EMAIL, type DemoCredentials, ERROR_CODES, type Envelope, type ErrorCode, type ErrorName, ErrorResponseSchema, type ErrorStatus, FREE_TIMEFRAMES, type FavoriteRepository, type GrantSource, MAX_ACTIVE_API_KEYS, OPENAPI_PATH, OPTIONAL_SESSION_OR_API_KEY, PROMOTION_PRO_DAYS, PUBLIC, RATE_LIMIT_WEIGHTS, RELEASE_FEED_PATH, type RunningServer, SERVICE_VERSION, SESSION_ONLY, SESSION_OR_API_KEY, SIGNAL_TIMEFRAMES, type ServerConfig, type ServerOptions, type SessionRecord, type SessionRepository, type Storage, TIERS, TIMEFRAMES, type Tier, type TierGrantRecord, type TierGrantRepository, type Timeframe, type UserRecord, type UserRepository, authorize, clientInfo, compareVersions, configDocument, createApp, createSqliteStorage, envelopeOf, grantTier, grantUserTier, migrate, ok, openDataDir, optionsFromEnv, parseVersion, requireUser, seedDemo, setUserTier, startServer, tierStanding, timeframeNeedsPro };
