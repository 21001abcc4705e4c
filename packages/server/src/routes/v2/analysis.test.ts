import {
  type CcxtVenueId,
  createSimulatedVenue,
  type MarketData,
  SIMULATED_VENUE_ID,
  VenueError,
} from '@marketlens/exchanges';
import { beforeAll, describe, expect, it } from 'vitest';
import { grantTier } from '../../services/tiers.js';
import { type Harness, harness } from '../../testing/harness.js';

interface Body {
  success: boolean;
  code: number | string;
  data: Record<string, unknown> & {
    asset: { id: string; asset_class: string };
    timeframe: string;
    market_type: string;
    pair: string;
    venue: string;
  };
}

let h: Harness;
let free: Record<string, string>;
let pro: Record<string, string>;
let freeKey: Record<string, string>;

beforeAll(async () => {
  h = harness();
  const f = await h.signup();
  const p = await h.signup();
  await grantTier(h.storage, p.userId, 'pro', 'admin', 30, h.clock.now);
  free = { 'x-session-token': f.token };
  pro = { 'x-session-token': p.token };
  freeKey = { 'x-api-key': await h.apiKey(f.token) };
});

const get = async (path: string, headers: Record<string, string>) => {
  const r = await h.request(path, { headers });
  return { status: r.status, headers: r.headers, body: (await r.json()) as Body };
};

const IOS_OLD = { 'x-platform': 'ios', 'x-app-version': '3.9.29' };
const IOS_NEW = { 'x-platform': 'ios', 'x-app-version': '3.9.30' };

describe('GET /v2/analysis', () => {
  it('serves d1 by default with the served market', async () => {
    const { status, body } = await get('/v2/analysis/bitcoin', free);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      asset: { id: 'bitcoin', asset_class: 'coins' },
      timeframe: 'd1',
      market_type: 'spot',
      pair: 'BTC/USDT',
      venue: 'marketlens-sim',
    });
    expect(body.data.as_of).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const k of ['indicators', 'levels', 'volume_profile', 'zone', 'signal', 'technical_rating', 'fear_greed']) {
      expect(body.data).toHaveProperty(k);
    }
  });

  it('names the asset in the query or in the path alike', async () => {
    const a = await get('/v2/analysis?asset_id=ethereum&timeframe=d1', free);
    const b = await get('/v2/analysis/ethereum', free);
    expect(a.status).toBe(200);
    expect(a.body.data).toEqual(b.body.data);
  });

  it('treats market_type as a preference and reads venue-native pairs', async () => {
    expect((await get('/v2/analysis/bitcoin?market_type=derivatives', free)).body.data).toMatchObject({
      market_type: 'derivatives',
      pair: 'BTC/USDT:USDT',
    });
    // A stock listed only as a tokenized perpetual is served from there.
    expect((await get('/v2/analysis/stock-coin?market_type=spot', free)).body.data.market_type).toBe('derivatives');
    expect(
      (await get(`/v2/analysis/bitcoin?pair=${encodeURIComponent('BTC/USDT:USDT')}`, free)).body.data.market_type,
    ).toBe('derivatives');
    const bad = await get('/v2/analysis/bitcoin?pair=NOPE', free);
    expect([bad.status, bad.body.code]).toEqual([404, 'UnknownMarket']);
  });

  it('refuses bad parameters and stablecoins with 400', async () => {
    expect((await get('/v2/analysis/bitcoin?timeframe=h2', free)).status).toBe(400);
    expect((await get('/v2/analysis/bitcoin?limit=10', free)).status).toBe(400);
    expect((await get('/v2/analysis', free)).status).toBe(400);
    const s = await get('/v2/analysis/tether', free);
    expect([s.status, s.body.code]).toEqual([400, 'StablecoinNotAnalyzed']);
  });

  it.each(['', '/signal', '/overview', '/markets'])('404s an unknown asset on /v2/analysis/{id}%s', async (tail) => {
    const { status, body } = await get(`/v2/analysis/no-such-coin${tail}`, free);
    expect([status, body.code]).toEqual([400, 'UnknownAsset']);
  });
});

describe('timeframe and depth gates', () => {
  type Who = 'free' | 'pro' | 'key';
  const who = (w: Who) => (w === 'free' ? free : w === 'pro' ? pro : freeKey);
  const rows: [string, Who, Record<string, string>, string, number, number | string][] = [
    ['d1 free', 'free', {}, 'bitcoin?timeframe=d1', 200, 0],
    ['h4 without Pro', 'free', {}, 'bitcoin?timeframe=h4', 402, 1004],
    ['h1 without Pro on the web', 'free', {}, 'bitcoin?timeframe=h1', 402, 1004],
    ['h1 on a mobile build below 3.9.30', 'free', IOS_OLD, 'bitcoin?timeframe=h1', 200, 0],
    ['h1 on a mobile build of unknown version', 'free', { 'x-platform': 'android' }, 'bitcoin?timeframe=h1', 200, 0],
    ['h1 on a mobile build at 3.9.30', 'free', IOS_NEW, 'bitcoin?timeframe=h1', 402, 1004],
    ['m15 on an old mobile build', 'free', IOS_OLD, 'bitcoin?timeframe=m15', 402, 1004],
    ['m15 with Pro', 'pro', {}, 'bitcoin?timeframe=m15', 200, 0],
    ['an external asset on h4', 'free', {}, 'onchain-base-brett?timeframe=h4', 200, 0],
    ['a deep window without Pro', 'free', {}, 'bitcoin?limit=1000', 402, 1005],
    ['a deep window with Pro', 'pro', {}, 'bitcoin?limit=1000', 200, 0],
    ['h4 by a free API key', 'key', {}, 'bitcoin?timeframe=h4', 402, 1004],
    ['d1 by an API key', 'key', {}, 'bitcoin', 200, 0],
  ];
  const routes = [
    (q: string) => `/v2/analysis/${q}`,
    (q: string) => `/v2/analysis/${q.replace(/^([^?]+)/, '$1/signal')}`,
    (q: string) => `/v2/analysis/${q.replace(/^([^?]+)/, '$1/overview')}`,
    (q: string) => `/v2/analysis?asset_id=${q.replace('?', '&')}`,
  ];
  it.each(rows)('%s', async (_name, w, client, q, status, code) => {
    for (const route of routes) {
      const r = await get(route(q), { ...who(w), ...client });
      expect([route(q), r.status, r.body.code]).toEqual([route(q), status, code]);
    }
  });
});

describe('GET /v2/analysis/{asset_id}/signal', () => {
  it('serves one computation for an hour with its age', async () => {
    const local = harness();
    const { token } = await local.signup();
    const headers = { 'x-session-token': token };
    const first = await local.request('/v2/analysis/solana/signal', { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=3600');
    const a = (await first.json()) as Body;
    expect(a.data).toMatchObject({ age: 0, max_age: 3600, cached_at: new Date(local.clock.now).toISOString() });

    local.clock.now += 10 * 60_000;
    const second = await local.request('/v2/analysis/solana/signal', { headers });
    expect(second.headers.get('cache-control')).toBe('private, max-age=3000');
    expect(second.headers.get('age')).toBe('600');
    const b = (await second.json()) as Body;
    expect(b.data.cached_at).toBe(a.data.cached_at);
    expect(b.data.signal).toEqual(a.data.signal);

    local.clock.now += 60 * 60_000;
    const c = (await (await local.request('/v2/analysis/solana/signal', { headers })).json()) as Body;
    expect(c.data).toMatchObject({ age: 0, cached_at: new Date(local.clock.now).toISOString() });
  });
});

describe('GET /v2/analysis/{asset_id}/overview', () => {
  it('writes the narrative in the x-locale language, English otherwise', async () => {
    const en = await get('/v2/analysis/bitcoin/overview', free);
    const de = await get('/v2/analysis/bitcoin/overview', { ...free, 'x-locale': 'de-DE' });
    const xx = await get('/v2/analysis/bitcoin/overview', { ...free, 'x-locale': 'xx' });
    expect(en.body.data.locale).toBe('en');
    expect(de.body.data.locale).toBe('de');
    expect(de.headers.get('content-language')).toBe('de');
    expect(de.body.data.text).not.toBe(en.body.data.text);
    expect(de.body.data.facts).toEqual(en.body.data.facts);
    expect(xx.body.data.text).toBe(en.body.data.text);
    expect(en.body.data.text).toMatch(/The price is/);
  });
});

describe('GET /v2/analysis/{asset_id}/markets', () => {
  it('combines spot and derivatives unless market_type is given', async () => {
    type Markets = { markets: { market_type: string; pair: string; funding_rate: number | null }[] };
    const both = (await get('/v2/analysis/bitcoin/markets', free)).body.data as unknown as Markets;
    expect(both.markets.map((m) => m.market_type).sort()).toEqual(['derivatives', 'spot']);
    expect(both.markets.find((m) => m.market_type === 'spot')?.funding_rate).toBeNull();
    const spot = (await get('/v2/analysis/bitcoin/markets?market_type=spot', freeKey)).body.data as unknown as Markets;
    expect(spot.markets.map((m) => m.pair)).toEqual(['BTC/USDT']);
    const stock = (await get('/v2/analysis/stock-coin/markets', free)).body.data as unknown as Markets;
    expect(stock.markets.map((m) => m.market_type)).toEqual(['derivatives']);
  });
});

describe('connection', () => {
  const ROUTES = [
    (q: string) => `/v2/analysis/bitcoin?${q}`,
    (q: string) => `/v2/analysis/bitcoin/signal?${q}`,
    (q: string) => `/v2/analysis/bitcoin/overview?${q}`,
    (q: string) => `/v2/analysis/bitcoin/markets?${q}`,
    (q: string) => `/v2/analysis?asset_id=bitcoin&${q}`,
  ];

  /** A harness whose real venues are simulated ones under their ccxt id, with the venues opened. */
  async function withVenues(open?: (venue: CcxtVenueId) => MarketData) {
    const opened: string[] = [];
    const clock = { now: 0 };
    const local = harness({}, undefined, {
      marketFor: (venue) => {
        opened.push(venue);
        return open ? open(venue) : createSimulatedVenue({ now: () => clock.now, venue });
      },
    });
    clock.now = local.clock.now;
    const { token } = await local.signup();
    const read = async (path: string) => {
      const r = await local.request(path, { headers: { 'x-session-token': token } });
      return { status: r.status, headers: r.headers, body: (await r.json()) as Body };
    };
    return { opened, read };
  }

  it('reads the configured venue when absent or naming the simulated venue', async () => {
    const { opened, read } = await withVenues();
    for (const route of ROUTES) {
      for (const q of ['', `connection=${SIMULATED_VENUE_ID}`]) {
        const r = await read(route(q));
        expect([route(q), r.status, r.body.data.venue]).toEqual([route(q), 200, SIMULATED_VENUE_ID]);
      }
    }
    expect(opened).toEqual([]);
  });

  it('reads a ccxt venue, opened once per app, with caches kept apart per venue', async () => {
    const { opened, read } = await withVenues();
    for (const route of ROUTES) {
      // The configured venue first: a cache keyed without the venue would answer the second read.
      expect((await read(route(''))).body.data.venue).toBe(SIMULATED_VENUE_ID);
      const r = await read(route('connection=binance'));
      expect([route('connection=binance'), r.status, r.body.data.venue]).toEqual([
        route('connection=binance'),
        200,
        'binance',
      ]);
    }
    expect((await read(ROUTES[0]('connection=okx'))).body.data.venue).toBe('okx');
    expect(opened).toEqual(['binance', 'okx']);
  });

  it('404s an unknown exchange id on every route without opening anything', async () => {
    const { opened, read } = await withVenues();
    for (const route of ROUTES) {
      const r = await read(route('connection=no-such-exchange'));
      expect([route(''), r.status, r.body.success, r.body.code]).toEqual([route(''), 404, false, 'UnknownExchange']);
    }
    expect(opened).toEqual([]);
  });

  it('answers 503 when the venue cannot be reached, and tries again on the next request', async () => {
    const { opened, read } = await withVenues(() => {
      throw new VenueError('network', 'connection reset', { venue: 'bybit' });
    });
    for (const route of ROUTES) {
      const r = await read(route('connection=bybit'));
      expect([route(''), r.status]).toEqual([route(''), 503]);
      expect(r.body).toMatchObject({ success: false, code: 'ServiceUnavailable' });
      expect(typeof (r.body as unknown as { message: unknown }).message).toBe('string');
    }
    expect(opened).toHaveLength(ROUTES.length);
  });

  it('passes a venue rate limit on as 503 with retry-after', async () => {
    const { read } = await withVenues(() => {
      throw new VenueError('rate_limited', 'slow down', { retryAfterMs: 2500 });
    });
    const r = await read(ROUTES[0]('connection=kraken'));
    expect([r.status, r.body.code, r.headers.get('retry-after')]).toEqual([503, 'ServiceUnavailable', '3']);
  });

  it('translates failures of the opened venue too', async () => {
    const { read } = await withVenues((venue) => {
      const sim = createSimulatedVenue({ venue });
      return {
        ...sim,
        venue,
        candles: () => Promise.reject(new VenueError('timeout', 'timed out')),
        markets: () => Promise.reject(new VenueError('maintenance', 'down for maintenance')),
      };
    });
    for (const route of ROUTES) {
      const r = await read(route('connection=coinbase'));
      expect([route(''), r.status, r.body.code]).toEqual([route(''), 503, 'ServiceUnavailable']);
    }
  });

  it('is documented on every analysis operation', async () => {
    type Param = { name: string; in: string; required: boolean; description?: string; schema: { example?: unknown } };
    const doc = h.app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '0' } });
    const paths = [
      '/v2/analysis',
      '/v2/analysis/{asset_id}',
      '/v2/analysis/{asset_id}/signal',
      '/v2/analysis/{asset_id}/overview',
      '/v2/analysis/{asset_id}/markets',
    ];
    for (const path of paths) {
      const params = (doc.paths?.[path]?.get?.parameters ?? []) as Param[];
      const connection = params.find((p) => p.name === 'connection');
      expect([path, connection?.in, connection?.required, connection?.schema.example]).toEqual([
        path,
        'query',
        false,
        'binance',
      ]);
      expect(connection?.description).toContain('UnknownExchange');
    }
  });
});
