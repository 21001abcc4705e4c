import { VenueError } from '../errors.js';
import type { CandleRequest, MarketData } from '../ports.js';
import { createSimulatedVenue } from '../simulated/venue.js';
import { BUILTIN_ASSETS } from '../universe/assets.js';
import { createUniverse } from '../universe/universe.js';
import type { MarketSource } from './source.js';

/** A source for tests: the simulated venue on a few assets, with call counts and a switch to fail. */
export interface TestSource extends MarketSource {
  calls: { candles: CandleRequest[]; ticker: number };
  /** The next calls fail with this error (null: they succeed). */
  failWith: VenueError | null;
  inner: MarketData;
}

/** A {@link TestSource} named `name` serving `ids` (built-in asset ids) on the clock `now`. */
export function testSource(name: string, ids: readonly string[], now: () => number, volume = 0): TestSource {
  const definitions = BUILTIN_ASSETS.filter((a) => ids.includes(a.id));
  const inner = createSimulatedVenue({ now, universe: createUniverse(definitions) });
  const source: TestSource = {
    source: name,
    venue: name.replace(/^ccxt:/, ''),
    calls: { candles: [], ticker: 0 },
    failWith: null,
    inner,
    async candles(request) {
      source.calls.candles.push(request);
      if (source.failWith) throw source.failWith;
      const series = await inner.candles(request);
      return { ...series, venue: source.venue };
    },
    async ticker(request) {
      source.calls.ticker++;
      if (source.failWith) throw source.failWith;
      return inner.ticker(request);
    },
    fundingRate: (request) => inner.fundingRate(request),
    markets: (asset) => inner.markets(asset),
    async listAssets() {
      if (source.failWith) throw source.failWith;
      return definitions.map((definition, i) => ({ definition, quote_volume_usd: volume === 0 ? null : volume - i }));
    },
  };
  return source;
}

/** A retryable upstream failure. */
export const outage = () => new VenueError('maintenance', 'upstream is down');
