import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { checkSources, parseSourceList, parseSourceName, SOURCE_FORMS, type SourceSpec } from '@marketlens/exchanges';
import { z } from 'zod';
import type { ServerOptions } from '../server.js';
import { optionsFromEnv } from './server-env.js';
import { SETTING_BY_KEY, SETTINGS, type Setting } from './settings.js';

/** A configuration that cannot run: the message is one line naming the key and what is allowed. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Log settings. */
export interface LogConfig {
  level: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  format: 'json' | 'pretty';
  /**
   * The request lines below 400: `info`, `debug`, or the share (0 < x < 1) of them written at info,
   * drawn per request; 4xx and 5xx lines are always written.
   */
  requests: 'info' | 'debug' | number;
}

/** How a process runs in a deployment: its shutdown, its pool, its job checks, its readiness. */
export interface OpsConfig {
  /** On SIGTERM, how long requests on open connections are still answered before idle ones close. */
  drainMs: number;
  /** PostgreSQL connections of this process's pool. */
  dbPoolMax: number;
  /** How often the repeatable jobs' schedules are checked in Redis. */
  jobsCheckMs: number;
  /** `/readyz` needs a real market source to have answered within this window. */
  readyMarketWindowMs: number;
}

/** Where market data comes from, and how it is kept. */
export interface MarketConfig {
  sources: SourceSpec[];
  refreshMs: number;
  backfill: number;
  timeoutMs: number;
  storeBytes: number;
  warmMs: number;
}

/** The whole validated configuration. */
export interface MarketlensConfig {
  production: boolean;
  /** The server's options (port, host, data folder, every service setting). */
  server: ServerOptions;
  market: MarketConfig;
  log: LogConfig;
  /** Addresses and CIDRs allowed to read `/metrics` (empty: loopback only). */
  metricsAllow: string[];
  /** The storage and shared-state engines. */
  backend: BackendConfig;
  ops: OpsConfig;
  /** The config file read, if any. */
  file: string | null;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const SourceObjectSchema = z
  .object({
    source: z.string(),
    proxyUrl: z.url({ protocol: /^https?$/ }).optional(),
    sandbox: z.boolean().optional(),
    baseUrl: z.url({ protocol: /^https?$/ }).optional(),
    symbols: z.array(z.string().regex(/^[\^A-Za-z0-9.=-]{1,20}$/)).optional(),
  })
  .strict();

const MarketFileSchema = z.union([z.string(), z.array(z.union([z.string(), SourceObjectSchema])).min(1)]);

/** A file value of a setting of this type, as the environment would write it. */
function fileValue(setting: Setting, value: unknown, where: string): string {
  const fail = (what: string) => new ConfigError(`${where}: '${setting.key}' must be ${what}`);
  switch (setting.type) {
    case 'string':
      if (typeof value !== 'string') throw fail('a string');
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw fail('an integer');
      return String(value);
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw fail('a number');
      return String(value);
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('true or false');
      return String(value);
    case 'list':
      if (typeof value === 'string') return value;
      if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) throw fail('a list of strings');
      return value.join(',');
    case 'sources':
      throw fail('handled apart');
  }
}

function sourceOf(item: string | z.infer<typeof SourceObjectSchema>, base: string): SourceSpec {
  if (typeof item === 'string') return resolveFiles(parseSourceName(item), base);
  const spec = resolveFiles(parseSourceName(item.source), base);
  if (item.proxyUrl !== undefined || item.sandbox !== undefined) {
    if (spec.kind !== 'ccxt') throw new Error(`${item.source}: proxyUrl and sandbox are for ccxt:<venue> sources`);
    return {
      ...spec,
      ...(item.proxyUrl ? { proxyUrl: item.proxyUrl } : {}),
      ...(item.sandbox ? { sandbox: item.sandbox } : {}),
    };
  }
  if (item.baseUrl !== undefined || item.symbols !== undefined) {
    if (spec.kind !== 'yahoo') throw new Error(`${item.source}: baseUrl and symbols are for the yahoo source`);
    return {
      ...spec,
      ...(item.baseUrl ? { baseUrl: item.baseUrl } : {}),
      ...(item.symbols ? { symbols: item.symbols } : {}),
    };
  }
  return spec;
}

/** A `files:` folder relative to the config file (or the working folder for the environment). */
function resolveFiles(spec: SourceSpec, base: string): SourceSpec {
  return spec.kind === 'files' ? { ...spec, dir: resolve(base, spec.dir) } : spec;
}

function zodLine(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue?.path.length ? issue.path.join('.') : '';
  return `${path ? `${path}: ` : ''}${issue?.message ?? 'invalid'}`;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min) {
    throw new ConfigError(`${name} must be an integer >= ${min}, got '${raw}'`);
  }
  return n;
}

/**
 * A file's settings as `[key, value]`, groups written as objects flattened to dotted keys:
 * `{ "database": { "url": "..." } }` is the setting `database.url`, as is `{ "database.url": "..." }`.
 */
function flattenGroups(parsed: Record<string, unknown>): [string, unknown][] {
  const out: [string, unknown][] = [];
  for (const [key, value] of Object.entries(parsed)) {
    const group = value !== null && typeof value === 'object' && !Array.isArray(value) && key !== 'market';
    if (!group) {
      out.push([key, value]);
      continue;
    }
    for (const [sub, v] of Object.entries(value as Record<string, unknown>)) out.push([`${key}.${sub}`, v]);
  }
  return out;
}

/** The storage and shared-state engines: SQLite and in-process by default. */
export interface BackendConfig {
  /** `postgres://` URL of a PostgreSQL 15+ database; null: the SQLite file in the data folder. */
  databaseUrl: string | null;
  /** `redis://` URL shared by every instance; null: limits, caches and jobs live in this process. */
  redisUrl: string | null;
}

/** `DATABASE_URL` and `REDIS_URL`, checked: Redis shares state between instances, so it needs a shared database. */
function backendOf(env: NodeJS.ProcessEnv): BackendConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const redisUrl = env.REDIS_URL?.trim() || null;
  if (databaseUrl !== null && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    throw new ConfigError(
      `DATABASE_URL (config key database.url) must be a postgres:// or postgresql:// URL, got '${redact(databaseUrl)}'`,
    );
  }
  if (redisUrl !== null && !/^rediss?:\/\/./.test(redisUrl)) {
    throw new ConfigError(
      `REDIS_URL (config key redis.url) must be a redis:// or rediss:// URL, got '${redact(redisUrl)}'`,
    );
  }
  if (redisUrl !== null && databaseUrl === null) {
    throw new ConfigError(
      'REDIS_URL is set but DATABASE_URL is not: instances that share Redis need one shared PostgreSQL database too (config key database.url)',
    );
  }
  return { databaseUrl, redisUrl };
}

/** A URL without its password, for messages. */
export function redact(url: string): string {
  return url.replace(/^([a-z]+:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/** What {@link loadConfig} reads. */
export interface LoadConfigInput {
  /** The environment; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** A JSON config file (its settings are overridden by the environment's). */
  file?: string;
  /** Settings given on the command line, by environment name (they override both). */
  overrides?: Readonly<Record<string, string | undefined>>;
  /**
   * `migrate` (`marketlens db migrate`, the backup tools): only the storage is opened, so the
   * secret key and the public URL are not required (nor read), production or not.
   */
  purpose?: 'serve' | 'migrate';
}

/**
 * Reads the one configuration of marketlens: the settings of {@link SETTINGS} from an optional
 * JSON file, then the environment, then command-line overrides. Unknown keys and bad values throw
 * a {@link ConfigError} whose one-line message names the key and what is allowed; in production
 * the secret key and the public URL are required. Nothing is started here.
 */
export function loadConfig(input: LoadConfigInput = {}): MarketlensConfig {
  const baseEnv = input.env ?? process.env;
  const merged: Record<string, string | undefined> = {};
  let fileSources: SourceSpec[] | null = null;
  const file = input.file === undefined ? null : resolve(input.file);
  if (file !== null) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(
        `config file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new ConfigError(`config file ${file} is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new ConfigError(`config file ${file} must hold a JSON object of settings`);
    }
    for (const [key, value] of flattenGroups(parsed as Record<string, unknown>)) {
      if (key === '$schema' || key === '$comment') continue;
      const setting = SETTING_BY_KEY.get(key);
      if (setting === undefined) {
        throw new ConfigError(
          `config file ${file}: unknown key '${key}'; allowed: ${SETTINGS.map((x) => x.key).join(', ')}`,
        );
      }
      if (setting.type === 'sources') {
        const market = MarketFileSchema.safeParse(value);
        if (!market.success) {
          throw new ConfigError(
            `config file ${file}: 'market' ${zodLine(market.error)} (a comma list or an array of ${SOURCE_FORMS})`,
          );
        }
        try {
          const base = resolve(file, '..');
          fileSources = checkSources(
            typeof market.data === 'string'
              ? parseSourceList(market.data).map((x) => resolveFiles(x, base))
              : market.data.map((x) => sourceOf(x, base)),
          );
        } catch (err) {
          throw new ConfigError(`config file ${file}: 'market': ${err instanceof Error ? err.message : String(err)}`);
        }
        continue;
      }
      merged[setting.env] = fileValue(setting, value, `config file ${file}`);
    }
  }
  for (const setting of SETTINGS) {
    const v = baseEnv[setting.env];
    if (v !== undefined) merged[setting.env] = v;
  }
  for (const [name, v] of Object.entries(input.overrides ?? {})) if (v !== undefined) merged[name] = v;
  const env: NodeJS.ProcessEnv = { ...baseEnv, ...merged };

  const mode = env.MARKETLENS_ENV?.trim() || 'development';
  if (mode !== 'development' && mode !== 'production') {
    throw new ConfigError(`MARKETLENS_ENV must be development or production, got '${mode}'`);
  }
  const production = mode === 'production';
  const serving = input.purpose !== 'migrate';
  if (!serving) {
    // Migrating needs the database alone: the key encrypts credentials and mail goes to users, and a
    // migration does neither.
    delete env.MARKETLENS_SECRET_KEY;
    env.MARKETLENS_EMAIL_VERIFICATION = 'off';
  }
  if (serving && production && !env.MARKETLENS_SECRET_KEY?.trim()) {
    throw new ConfigError(
      'production needs MARKETLENS_SECRET_KEY (config key secretKey): 32 random bytes, base64-encoded',
    );
  }
  if (serving && production && !env.MARKETLENS_PUBLIC_URL?.trim()) {
    throw new ConfigError(
      'production needs MARKETLENS_PUBLIC_URL (config key publicUrl): the https origin clients use',
    );
  }

  const backend = backendOf(env);
  if (serving && backend.redisUrl !== null && !env.MARKETLENS_SECRET_KEY?.trim()) {
    throw new ConfigError(
      'several instances (REDIS_URL) need one MARKETLENS_SECRET_KEY (config key secretKey): each would otherwise encrypt credentials with its own key file',
    );
  }

  let server: ServerOptions;
  try {
    server = optionsFromEnv(env);
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }

  let sources: SourceSpec[] = fileSources ?? [{ kind: 'simulated' }];
  const marketEnv = merged.MARKETLENS_MARKET;
  if (marketEnv !== undefined && marketEnv.trim() !== '') {
    try {
      sources = parseSourceList(marketEnv).map((x) => resolveFiles(x, process.cwd()));
    } catch (err) {
      throw new ConfigError(`MARKETLENS_MARKET: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const level = (env.MARKETLENS_LOG_LEVEL?.trim() || 'info') as LogConfig['level'];
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(`MARKETLENS_LOG_LEVEL must be one of ${LEVELS.join(', ')}, got '${level}'`);
  }
  const format = env.MARKETLENS_LOG_FORMAT?.trim() || (production ? 'json' : 'pretty');
  if (format !== 'json' && format !== 'pretty') {
    throw new ConfigError(`MARKETLENS_LOG_FORMAT must be json or pretty, got '${format}'`);
  }
  const requests = requestLogOf(env.MARKETLENS_LOG_REQUESTS?.trim() || 'info');
  return {
    production,
    server,
    market: {
      sources,
      refreshMs: int(env, 'MARKETLENS_MARKET_REFRESH_MS', 30_000, 0),
      backfill: int(env, 'MARKETLENS_MARKET_BACKFILL', 5_000, 50),
      timeoutMs: int(env, 'MARKETLENS_MARKET_TIMEOUT_MS', 10_000, 100),
      storeBytes: int(env, 'MARKETLENS_CANDLE_STORE_MB', 1024, 1) * 1024 * 1024,
      warmMs: int(env, 'MARKETLENS_MARKET_WARM_MS', 60_000, 0),
    },
    log: { level, format, requests },
    metricsAllow: (env.MARKETLENS_METRICS_ALLOW ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x.length > 0),
    backend,
    ops: {
      drainMs: int(env, 'MARKETLENS_DRAIN_MS', 10_000, 0),
      dbPoolMax: int(env, 'MARKETLENS_DB_POOL_MAX', 10, 1),
      jobsCheckMs: int(env, 'MARKETLENS_JOBS_CHECK_MS', 30_000, 100),
      readyMarketWindowMs: int(env, 'MARKETLENS_READY_MARKET_WINDOW_MS', 600_000, 1_000),
    },
    file,
  };
}

/** `MARKETLENS_LOG_REQUESTS`: `info`, `debug` or a share strictly between 0 and 1. */
function requestLogOf(raw: string): LogConfig['requests'] {
  if (raw === 'info' || raw === 'debug') return raw;
  const share = Number(raw);
  if (!/^0?\.\d+$/.test(raw) || !(share > 0 && share < 1)) {
    throw new ConfigError(
      `MARKETLENS_LOG_REQUESTS must be info, debug or a share between 0 and 1 (e.g. 0.1), got '${raw}'`,
    );
  }
  return share;
}
