/**
 * Test support for the Yahoo source: a local stand-in for Yahoo's chart API (an HTTP server on
 * 127.0.0.1, random port, answering `GET /v8/finance/chart/{symbol}`), and builders of answers in
 * the API's real format. The metas copy the fields of recorded answers (AAPL and EURUSD=X,
 * February 2025); symbols without a route get Yahoo's real unknown-symbol answer (HTTP 404).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface ChartRequest {
  /** The symbol, URL-decoded (`^GSPC`, `EURUSD=X`). */
  symbol: string;
  params: URLSearchParams;
  headers: IncomingHttpHeaders;
}

/** A reply: status (default 200), body (JSON-encoded unless a string), headers, optional delay. */
export interface ChartReply {
  status?: number;
  body: unknown;
  headers?: Readonly<Record<string, string>>;
  delayMs?: number;
}

/** The running stand-in. */
export interface YahooServer {
  /** The value for the source's `baseUrl`. */
  readonly baseUrl: string;
  /** Every request received, oldest first. */
  readonly requests: ChartRequest[];
  /** Answers requests for `symbol` (replacing an earlier route of it). */
  route(symbol: string, reply: (request: ChartRequest) => ChartReply): void;
  /** Drops the routes and the request log. */
  reset(): void;
  close(): Promise<void>;
}

const PATH = /^\/v8\/finance\/chart\/([^/?]+)$/;

/** Yahoo's answer to a symbol it does not know. */
export const NOT_FOUND: ChartReply = {
  status: 404,
  body: { chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } },
};

/** Starts the stand-in on 127.0.0.1 with a random free port. */
export async function startYahooServer(): Promise<YahooServer> {
  const routes = new Map<string, (request: ChartRequest) => ChartReply>();
  const requests: ChartRequest[] = [];
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const match = PATH.exec(url.pathname);
    if (req.method !== 'GET' || match === null) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such endpoint');
      return;
    }
    const request: ChartRequest = {
      symbol: decodeURIComponent(match[1]),
      params: url.searchParams,
      headers: req.headers,
    };
    requests.push(request);
    const reply = routes.get(request.symbol)?.(request) ?? NOT_FOUND;
    const send = (): void => {
      if (res.destroyed) return;
      const body = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      res.writeHead(reply.status ?? 200, {
        'content-type': 'application/json;charset=utf-8',
        ...(reply.headers ?? {}),
      });
      res.end(body);
    };
    if (reply.delayMs === undefined) send();
    else {
      const timer = setTimeout(() => {
        pending.delete(timer);
        send();
      }, reply.delayMs);
      pending.add(timer);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route(symbol, reply) {
      routes.set(symbol, reply);
    },
    reset() {
      routes.clear();
      requests.length = 0;
    },
    close() {
      for (const t of pending) clearTimeout(t);
      pending.clear();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Seconds since the epoch of a UTC date-time (month 1-based), as Yahoo stamps bars. */
export const sec = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number =>
  Date.UTC(y, mo - 1, d, h, mi, s) / 1000;

/** One bar row: `[time (s), open, high, low, close, volume]`, null where Yahoo has a gap. */
export type Row = readonly [number, number | null, number | null, number | null, number | null, number | null];

const VALID_RANGES = ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'];

/** The meta of AAPL as Yahoo sent it on 2025-02-20 (New York in standard time, UTC-5). */
export function aaplMeta(dataGranularity: string): Record<string, unknown> {
  return {
    currency: 'USD',
    symbol: 'AAPL',
    exchangeName: 'NMS',
    fullExchangeName: 'NasdaqGS',
    instrumentType: 'EQUITY',
    firstTradeDate: 345479400,
    regularMarketTime: 1739998801,
    hasPrePostMarketData: true,
    gmtoffset: -18000,
    timezone: 'EST',
    exchangeTimezoneName: 'America/New_York',
    regularMarketPrice: 244.87,
    fiftyTwoWeekHigh: 260.1,
    fiftyTwoWeekLow: 164.08,
    regularMarketDayHigh: 246.01,
    regularMarketDayLow: 243.16,
    regularMarketVolume: 32129951,
    longName: 'Apple Inc.',
    shortName: 'Apple Inc.',
    chartPreviousClose: 236,
    priceHint: 2,
    currentTradingPeriod: {
      pre: { timezone: 'EST', start: 1740042000, end: 1740061800, gmtoffset: -18000 },
      regular: { timezone: 'EST', start: 1740061800, end: 1740085200, gmtoffset: -18000 },
      post: { timezone: 'EST', start: 1740085200, end: 1740099600, gmtoffset: -18000 },
    },
    dataGranularity,
    range: '',
    validRanges: VALID_RANGES,
  };
}

/** The meta of EURUSD=X as Yahoo sent it on 2025-02-20 (London in winter, GMT). */
export function eurusdMeta(dataGranularity: string): Record<string, unknown> {
  const timezone = 'GMT';
  const gmtoffset = 0;
  return {
    currency: 'USD',
    symbol: 'EURUSD=X',
    exchangeName: 'CCY',
    fullExchangeName: 'CCY',
    instrumentType: 'CURRENCY',
    firstTradeDate: 1070236800,
    regularMarketTime: 1740052002,
    hasPrePostMarketData: false,
    gmtoffset,
    timezone,
    exchangeTimezoneName: 'Europe/London',
    regularMarketPrice: 1.0436,
    fiftyTwoWeekHigh: 1.1212,
    fiftyTwoWeekLow: 1.0184,
    regularMarketDayHigh: 1.0449,
    regularMarketDayLow: 1.0422,
    regularMarketVolume: 0,
    longName: 'EUR/USD',
    shortName: 'EUR/USD',
    chartPreviousClose: 1.1221,
    priceHint: 4,
    currentTradingPeriod: {
      pre: { timezone, start: 1740009600, end: 1740009600, gmtoffset },
      regular: { timezone, start: 1740009600, end: 1740095940, gmtoffset },
      post: { timezone, start: 1740095940, end: 1740095940, gmtoffset },
    },
    dataGranularity,
    range: '',
    validRanges: VALID_RANGES,
  };
}

/** A successful chart answer; daily and weekly ones carry `adjclose` as Yahoo's do. */
export function chart(meta: Record<string, unknown>, rows: readonly Row[]): ChartReply {
  const granularity = String(meta.dataGranularity);
  const column = (i: 1 | 2 | 3 | 4 | 5) => rows.map((r) => r[i]);
  const indicators: Record<string, unknown> =
    rows.length === 0
      ? { quote: [{}] } // Yahoo's answer for a range without trading: no timestamp, an empty quote
      : { quote: [{ open: column(1), high: column(2), low: column(3), close: column(4), volume: column(5) }] };
  if (rows.length > 0 && (granularity === '1d' || granularity === '1wk'))
    indicators.adjclose = [{ adjclose: column(4) }];
  const result: Record<string, unknown> = { meta, indicators };
  if (rows.length > 0) result.timestamp = rows.map((r) => r[0]);
  return { body: { chart: { result: [result], error: null } } };
}
