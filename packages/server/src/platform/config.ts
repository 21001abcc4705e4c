import { DEFAULT_IPV6_PREFIX } from './client-ip.js';
import { DEFAULT_CONFIG } from './deps.js';
import { type SettingsGroup, setting } from './settings.js';

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

/**
 * The platform's settings: the public URL, the trusted proxies, the rate limit and the
 * client-version gate (MARKETLENS_PUBLIC_URL, MARKETLENS_TRUSTED_PROXIES, MARKETLENS_RATE_LIMIT,
 * MARKETLENS_RATE_LIMIT_IPV6_PREFIX, MARKETLENS_MIN_CLIENT_VERSION).
 */
export const PLATFORM_SETTINGS: SettingsGroup = {
  owner: 'platform/',
  // biome-ignore format: a table, one setting a line
  rows: [
    setting('publicUrl', 'MARKETLENS_PUBLIC_URL', 'string', "the request origin (loopback or this server's address only)", 'public base URL (OAuth issuer, token audience); required in production'),
    setting('trustedProxies', 'MARKETLENS_TRUSTED_PROXIES', 'list', 'none', 'reverse proxies whose X-Forwarded-For is believed'),
    setting('rateLimit', 'MARKETLENS_RATE_LIMIT', 'integer', '2000', 'request units one client address may spend in any 60 s (routes weigh what they cost to serve)'),
    setting('rateLimitIpv6Prefix', 'MARKETLENS_RATE_LIMIT_IPV6_PREFIX', 'integer', '64', 'IPv6 addresses sharing this many leading bits count as one client (rate limit, login and sign-up, connections)'),
    setting('minClientVersion', 'MARKETLENS_MIN_CLIENT_VERSION', 'string', '3.0.0', 'mobile builds below it fail the supported-client check'),
  ],
  read: (env) => ({
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
    ...publicUrlFromEnv(env),
  }),
};
