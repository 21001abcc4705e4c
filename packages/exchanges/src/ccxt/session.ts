import { defaultUniverse, type Universe } from '../universe/universe.js';
import { type CcxtClientOptions, call, createClient, type ReadOnlyClient } from './client.js';
import { MarketIndex } from './market-index.js';
import type { VenueCredentials, VenueProfile } from './venues.js';

/** Options shared by the ccxt adapters. */
export interface CcxtAdapterOptions extends CcxtClientOptions {
  /** The asset universe instruments are mapped onto; default the built-in one. */
  universe?: Universe;
  /** The clock (ms UTC); default `Date.now`. */
  now?: () => number;
}

/** A ccxt client with its venue profile and its market index, loaded once. */
export class CcxtSession {
  readonly universe: Universe;
  readonly now: () => number;
  private indexLoading: Promise<MarketIndex> | undefined;

  private constructor(
    readonly profile: VenueProfile,
    readonly client: ReadOnlyClient,
    options: CcxtAdapterOptions,
  ) {
    this.universe = options.universe ?? defaultUniverse;
    this.now = options.now ?? Date.now;
  }

  /** Builds the session: loads ccxt (lazily, on first use in the process) and the venue's client. */
  static async open(
    profile: VenueProfile,
    credentials: VenueCredentials,
    options: CcxtAdapterOptions,
  ): Promise<CcxtSession> {
    return new CcxtSession(profile, await createClient(profile, credentials, options), options);
  }

  /** Runs a venue call, mapping failures to `VenueError`. */
  call<T>(run: (client: ReadOnlyClient) => Promise<T>): Promise<T> {
    return call(this.client, this.profile, () => run(this.client));
  }

  /** The venue's markets by asset and native name (loaded from the venue unless injected). */
  index(): Promise<MarketIndex> {
    this.indexLoading ??= this.call((c) => c.loadMarkets()).then(
      // ccxt's TICK_SIZE precision mode (4): `precision.price` is the tick, not a count of decimals.
      (markets) => new MarketIndex(markets, this.universe, this.profile, this.client.precisionMode === 4),
      (error: unknown) => {
        this.indexLoading = undefined;
        throw error;
      },
    );
    return this.indexLoading;
  }
}
