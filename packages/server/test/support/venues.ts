/**
 * Test support: the local venue server and Bybit fixtures of @marketlens/exchanges (its
 * src/ccxt/testing, not exported). They are loaded by a computed path so this package's
 * typecheck (rootDir: the package) does not pull another package's sources in; the part the
 * tests use is typed here.
 */
import type { CcxtMarket } from '@marketlens/exchanges';

/** A reply of the local venue server. */
export interface FixtureReply {
  status?: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
}

/** One route of the local venue server. */
export interface FixtureRoute {
  method: 'GET' | 'POST';
  host: string;
  path: string;
  reply: (request: unknown) => FixtureReply;
}

/** The running local venue server (see exchanges/src/ccxt/testing/venue-server.ts). */
export interface LocalVenueServer {
  readonly proxyUrl: string;
  readonly requests: unknown[];
  readonly unmatched: unknown[];
  routes(routes: readonly unknown[]): void;
  override(route: FixtureRoute): void;
  reset(): void;
  close(): Promise<void>;
}

/** The Bybit fixture: routes, markets, canned failures and the history the routes serve. */
export interface BybitFixture {
  NOW: number;
  startVenueServer(): Promise<LocalVenueServer>;
  bybitRoutes(history?: unknown): unknown[];
  bybitMarkets: CcxtMarket[];
  bybitFailures: { badKey: FixtureReply; rateLimit: FixtureReply; maintenance: FixtureReply };
  bybitHistory(): {
    trades: ReadonlyArray<{ execId: string }>;
    funding: ReadonlyArray<{ execTime: string; execFee: string }>;
  };
}

const TESTING = new URL('../../../exchanges/src/ccxt/testing/', import.meta.url);

/** Loads the local venue server and the Bybit fixture. */
export async function loadBybitFixture(): Promise<BybitFixture> {
  const load = (path: string): Promise<Record<string, unknown>> =>
    import(/* @vite-ignore */ new URL(path, TESTING).href) as Promise<Record<string, unknown>>;
  const [server, bybit, common] = await Promise.all([
    load('venue-server.ts'),
    load('fixtures/bybit.ts'),
    load('fixtures/common.ts'),
  ]);
  return { ...server, ...bybit, ...common } as unknown as BybitFixture;
}
