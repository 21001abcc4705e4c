import type { Context } from 'hono';
import type { AppDeps, AppEnv, ClientInfo } from './deps.js';
import { AppError } from './errors/app-error.js';
import { requestHeader } from './request-header.js';

type Version = readonly [number, number, number];

/** Mobile builds below this get `h1` free (a temporary gate). */
export const H1_FREE_BELOW: Version = [3, 9, 30];
/** Mobile builds below this get the earlier split positions/balances shape. */
export const LEGACY_SHAPES_BELOW: Version = [3, 9, 26];

const MOBILE = new Set(['ios', 'android']);

export function parseVersion(text: string | undefined | null): Version | null {
  const m = /^v?(\d{1,6})\.(\d{1,6})(?:\.(\d{1,6}))?(?:[-+].*)?$/.exec(text?.trim() ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : null;
}

export function compareVersions(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** What a request without x-platform and x-app-version is (shared, never mutated). */
const NO_CLIENT_INFO: ClientInfo = Object.freeze({
  platform: null,
  version: null,
  mobile: false,
  h1Free: false,
  legacyShapes: false,
});

export function clientInfo(platformHeader: string | undefined, versionHeader: string | undefined): ClientInfo {
  if (platformHeader === undefined && versionHeader === undefined) return NO_CLIENT_INFO;
  const platform = platformHeader?.trim().toLowerCase() || null;
  const version = parseVersion(versionHeader);
  const mobile = platform !== null && MOBILE.has(platform);
  return {
    platform,
    version,
    mobile,
    // Strict: only a claimed mobile platform with a well-formed version below the bound gets h1
    // free. An absent or malformed x-app-version is not an "unknown" version: any client can send
    // `x-platform: ios` alone, and a real build always sends its version.
    h1Free: mobile && version !== null && compareVersions(version, H1_FREE_BELOW) < 0,
    legacyShapes: mobile && version !== null && compareVersions(version, LEGACY_SHAPES_BELOW) < 0,
  };
}

/** Whether `key` is an API key that is valid now (the exemption from the version gate). */
export type ApiKeyCheck = (key: string, deps: AppDeps) => Promise<boolean>;

/**
 * Reads x-platform / x-app-version into `client`, and refuses mobile builds below the minimum
 * supported version, unless the request carries a valid `x-api-key` (the only exemption), which
 * `validApiKey` says (the keys feature's, given by the composition root; without it, no key exempts).
 * Synchronous unless that exemption has to be looked up (then the returned promise settles it).
 */
export class ClientVersionGate {
  readonly #validApiKey: ApiKeyCheck;

  constructor(validApiKey: ApiKeyCheck = async () => false) {
    this.#validApiKey = validApiKey;
  }

  // The configured minimum, parsed once per distinct value.
  #minText: string | undefined;
  #min: Version | null = null;

  check(c: Context<AppEnv>, deps: AppDeps): Promise<void> | undefined {
    const info = clientInfo(requestHeader(c, 'x-platform'), requestHeader(c, 'x-app-version'));
    c.set('client', info);
    if (!info.mobile || !info.version) return undefined;
    const { minClientVersion } = deps.config;
    if (this.#minText !== minClientVersion) {
      this.#minText = minClientVersion;
      this.#min = parseVersion(minClientVersion);
    }
    if (!this.#min || compareVersions(info.version, this.#min) >= 0) return undefined;
    return exempted(c, deps, info.version, minClientVersion, this.#validApiKey);
  }
}

async function exempted(
  c: Context<AppEnv>,
  deps: AppDeps,
  version: Version,
  minimum: string,
  validApiKey: ApiKeyCheck,
): Promise<void> {
  const key = requestHeader(c, 'x-api-key');
  const valid = key ? await validApiKey(key, deps) : false;
  if (!valid) {
    throw new AppError(
      'UnsupportedClientVersion',
      `App version ${version.join('.')} is no longer supported; update to ${minimum} or later`,
    );
  }
}
