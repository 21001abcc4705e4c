import { join, resolve } from 'node:path';
import type { SyncConfig } from '../accounts/config.js';
import { parseCredentialsKey } from '../accounts/credentials-crypto.js';
import type { PushConfig } from '../alerts/config.js';
import { DEFAULT_VAPID_SUBJECT } from '../alerts/push/vapid.js';
import type { OverviewLlmConfig } from '../analysis/config.js';
import { parsePlanCosts } from '../analysis/plan-costs.js';
import { verificationFromEnv } from '../auth/verification/config.js';
import { EXAMPLE_NEWS_FEED, parseFeedList } from '../market/news/news.js';
import { pilotConfigFromEnv } from '../pilot/config.js';
import { DEFAULT_IPV6_PREFIX } from '../platform/client-ip.js';
import { DEFAULT_CONFIG } from '../platform/deps.js';
import { affiliateThresholdFromEnv } from '../promotions/config.js';
import type { ServerOptions } from '../server.js';

/** `MARKETLENS_RATE_LIMIT`: units per client address per 60 s, default 2,000. */
function rateLimitOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_CONFIG.rateLimit.limit;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 10_000_000) {
    throw new Error(`MARKETLENS_RATE_LIMIT must be an integer 1..10000000, got '${raw}'`);
  }
  return n;
}

/** `MARKETLENS_RATE_LIMIT_IPV6_PREFIX`: the IPv6 prefix length counted as one client, 32..128, default 64. */
function ipv6PrefixOf(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_IPV6_PREFIX;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 32 || n > 128) {
    throw new Error(`MARKETLENS_RATE_LIMIT_IPV6_PREFIX must be an integer 32..128, got '${raw}'`);
  }
  return n;
}

/**
 * Reads PORT (8080), HOST (127.0.0.1), MARKETLENS_DATA_DIR (./data), MARKETLENS_TRUSTED_PROXIES,
 * MARKETLENS_MIN_CLIENT_VERSION, MARKETLENS_NEWS_FEEDS (comma list of RSS/Atom URLs or file paths;
 * unset: the example feed shipped with the package, read from disk; empty: no news) and
 * MARKETLENS_OPENAI_BASE_URL / _API_KEY / _MODEL (all three: the overview rewrite; else none),
 * MARKETLENS_AFFILIATE_VOLUME_THRESHOLD_USD (the promotions volume threshold; default 10000).
 * Fails with a message naming the variable when a value is malformed.
 */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be an integer 0..65535, got ${env.PORT}`);
  const dataDir = resolve(env.MARKETLENS_DATA_DIR || './data');
  const verification = verificationFromEnv(env);
  // In development, mail with nowhere else to go is appended to a file of the data folder, never logged.
  if (verification.mail.smtpUrl === null && !verification.mail.file && env.MARKETLENS_ENV?.trim() !== 'production') {
    verification.mail = { ...verification.mail, file: join(dataDir, 'mail.txt') };
  }
  return {
    port,
    host: env.HOST || '127.0.0.1',
    dataDir,
    config: {
      ...DEFAULT_CONFIG,
      trustedProxies: (env.MARKETLENS_TRUSTED_PROXIES ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
      minClientVersion: env.MARKETLENS_MIN_CLIENT_VERSION || DEFAULT_CONFIG.minClientVersion,
      rateLimit: {
        ...DEFAULT_CONFIG.rateLimit,
        limit: rateLimitOf(env.MARKETLENS_RATE_LIMIT),
        ipv6Prefix: ipv6PrefixOf(env.MARKETLENS_RATE_LIMIT_IPV6_PREFIX),
      },
      news: {
        ...DEFAULT_CONFIG.news,
        feeds: env.MARKETLENS_NEWS_FEEDS === undefined ? [EXAMPLE_NEWS_FEED] : parseFeedList(env.MARKETLENS_NEWS_FEEDS),
      },
      overviewLlm: overviewLlmFromEnv(env),
      affiliateVolumeThresholdUsd: affiliateThresholdFromEnv(env),
      sync: syncFromEnv(env),
      push: pushFromEnv(env),
      pilot: pilotConfigFromEnv(env),
      ...publicUrlFromEnv(env),
      ...mcpAllowedOriginsFromEnv(env),
      ...verification,
      planCosts: parsePlanCosts(env.MARKETLENS_PLAN_COSTS),
      ...signalMinExpectedRFromEnv(env.MARKETLENS_SIGNAL_MIN_EXPECTED_R),
      backtestIntervalMs: backtestIntervalFromEnv(env.MARKETLENS_BACKTEST_INTERVAL_MS),
    },
    ...(env.MARKETLENS_SECRET_KEY ? { credentialsKey: parseCredentialsKey(env.MARKETLENS_SECRET_KEY) } : {}),
    ...(env.MARKETLENS_SECRET_KEY_PREVIOUS
      ? { previousCredentialsKey: previousKeyOf(env.MARKETLENS_SECRET_KEY_PREVIOUS) }
      : {}),
  };
}

/**
 * MARKETLENS_VAPID_PUBLIC_KEY / _PRIVATE_KEY (together; absent: keys generated once and kept in
 * storage) and MARKETLENS_VAPID_SUBJECT (a mailto: or https: contact the push services may use).
 */
function pushFromEnv(env: NodeJS.ProcessEnv): PushConfig {
  const publicKey = env.MARKETLENS_VAPID_PUBLIC_KEY?.trim();
  const privateKey = env.MARKETLENS_VAPID_PRIVATE_KEY?.trim();
  const subject = env.MARKETLENS_VAPID_SUBJECT?.trim() || DEFAULT_VAPID_SUBJECT;
  if (!publicKey && !privateKey) return { vapid: null, allowInsecureEndpoints: false };
  if (!publicKey || !privateKey) {
    throw new Error('MARKETLENS_VAPID_PUBLIC_KEY and MARKETLENS_VAPID_PRIVATE_KEY go together');
  }
  if (!/^(mailto:|https:\/\/)/.test(subject))
    throw new Error('MARKETLENS_VAPID_SUBJECT must be a mailto: or https: URL');
  return { vapid: { publicKey, privateKey, subject }, allowInsecureEndpoints: false };
}

/**
 * MARKETLENS_SYNC_INTERVAL_MS (time between syncs of a connection, default 5 min) and
 * MARKETLENS_SYNC_POLL_MS / _CONCURRENCY / _CALL_TIMEOUT_MS / _BACKOFF_BASE_MS / _BACKOFF_MAX_MS.
 */
function syncFromEnv(env: NodeJS.ProcessEnv): SyncConfig {
  const d = DEFAULT_CONFIG.sync;
  const read = (name: string, fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got ${raw}`);
    return n;
  };
  return {
    intervalMs: read('MARKETLENS_SYNC_INTERVAL_MS', d.intervalMs, 1000),
    pollMs: read('MARKETLENS_SYNC_POLL_MS', d.pollMs, 10),
    concurrency: read('MARKETLENS_SYNC_CONCURRENCY', d.concurrency, 1),
    callTimeoutMs: read('MARKETLENS_SYNC_CALL_TIMEOUT_MS', d.callTimeoutMs, 100),
    backoffBaseMs: read('MARKETLENS_SYNC_BACKOFF_BASE_MS', d.backoffBaseMs, 10),
    backoffMaxMs: read('MARKETLENS_SYNC_BACKOFF_MAX_MS', d.backoffMaxMs, 10),
  };
}

/** MARKETLENS_PUBLIC_URL: the base URL clients use when it is not the request origin (behind a TLS proxy). */
function publicUrlFromEnv(env: NodeJS.ProcessEnv): { publicUrl?: string } {
  const raw = env.MARKETLENS_PUBLIC_URL?.trim();
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`MARKETLENS_PUBLIC_URL must be an absolute http(s) URL, got ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`MARKETLENS_PUBLIC_URL must be an http(s) URL, got ${raw}`);
  return { publicUrl: url.origin };
}

/** MARKETLENS_MCP_ALLOWED_ORIGINS: browser origins (comma list of http(s) URLs) whose pages may call /mcp. */
function mcpAllowedOriginsFromEnv(env: NodeJS.ProcessEnv): { mcpAllowedOrigins?: string[] } {
  const raw = (env.MARKETLENS_MCP_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (raw.length === 0) return {};
  return {
    mcpAllowedOrigins: raw.map((origin) => {
      let url: URL;
      try {
        url = new URL(origin);
      } catch {
        throw new Error(`MARKETLENS_MCP_ALLOWED_ORIGINS must list http(s) origins, got ${origin}`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new Error(`MARKETLENS_MCP_ALLOWED_ORIGINS must list http(s) origins, got ${origin}`);
      return url.origin;
    }),
  };
}

function overviewLlmFromEnv(env: NodeJS.ProcessEnv): OverviewLlmConfig | null {
  const baseUrl = env.MARKETLENS_OPENAI_BASE_URL?.trim();
  const apiKey = env.MARKETLENS_OPENAI_API_KEY?.trim();
  const model = env.MARKETLENS_OPENAI_MODEL?.trim();
  if (!baseUrl && !apiKey && !model) return null;
  if (!baseUrl || !apiKey || !model) {
    throw new Error('MARKETLENS_OPENAI_BASE_URL, MARKETLENS_OPENAI_API_KEY and MARKETLENS_OPENAI_MODEL go together');
  }
  if (!/^https?:\/\//i.test(baseUrl))
    throw new Error(`MARKETLENS_OPENAI_BASE_URL must be an http(s) URL, got ${baseUrl}`);
  return { baseUrl, apiKey, model, timeoutMs: 8_000 };
}

/** MARKETLENS_SECRET_KEY_PREVIOUS: a key like MARKETLENS_SECRET_KEY, named as itself in the error. */
function previousKeyOf(base64: string): Buffer {
  try {
    return parseCredentialsKey(base64);
  } catch (err) {
    throw new Error(
      (err instanceof Error ? err.message : String(err)).replace(
        'MARKETLENS_SECRET_KEY',
        'MARKETLENS_SECRET_KEY_PREVIOUS',
      ),
    );
  }
}

/** MARKETLENS_SIGNAL_MIN_EXPECTED_R: a number in -100..100 (R); absent or blank: core's default. */
function signalMinExpectedRFromEnv(raw: string | undefined): { signalMinExpectedR?: number } {
  if (raw === undefined || raw.trim() === '') return {};
  const x = /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!(x >= -100 && x <= 100)) {
    throw new Error(`MARKETLENS_SIGNAL_MIN_EXPECTED_R: '${raw}' is not a number of R in -100..100`);
  }
  return { signalMinExpectedR: x };
}

/** MARKETLENS_BACKTEST_INTERVAL_MS: ms between two runs of the backtest record job, 0 (never) or at least a minute; default an hour. */
function backtestIntervalFromEnv(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 3_600_000;
  const x = Number(raw);
  if (!Number.isInteger(x) || (x !== 0 && x < 60_000)) {
    throw new Error(`MARKETLENS_BACKTEST_INTERVAL_MS must be 0 (never) or an integer >= 60000, got ${raw}`);
  }
  return x;
}
