/**
 * A minimal client of Yahoo's chart API: one GET per call, a deadline, the body validated against
 * {@link chartBodySchema}, every failure turned into a {@link VenueError}. It never retries: the
 * caller (the source guard) owns retries, backoff and circuit breaking.
 */
import { VenueError, type VenueErrorCode } from '../../errors.js';
import { type ChartError, type ChartResult, chartBodySchema } from './schema.js';

/** Yahoo's names of the bar lengths the source reads. */
export type YahooInterval = '5m' | '15m' | '30m' | '60m' | '1d' | '1wk';

/** How the client reaches Yahoo. */
export interface ChartClientConfig {
  /** `https://query1.finance.yahoo.com`, or a test server. */
  baseUrl: string;
  timeoutMs: number;
  fetch: typeof fetch;
  now: () => number;
}

/** Bars of one symbol and interval opened in `[from, to)` (ms UTC). */
export interface ChartQuery {
  symbol: string;
  interval: YahooInterval;
  from: number;
  to: number;
}

const VENUE = 'yahoo';

// Yahoo answers requests that do not look like a browser's with 429 and a plain-text body.
const HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json',
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
};

/** A `Retry-After` header (delta-seconds or an HTTP date) in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The error of an HTTP status that carried no usable chart error. Everything but a refused request
 * is a fault of the source and retryable: for the source guard and the composite, a non-retryable
 * error is a correct answer (it neither counts against the circuit nor lets stored candles or the
 * next source serve), and neither a Yahoo that blocks us nor a base URL that is not the chart API
 * is such an answer.
 */
function statusError(status: number, what: string): VenueError {
  const message = `${what}: HTTP ${status}`;
  if (status === 400 || status === 422) return new VenueError('bad_request', message, { venue: VENUE });
  if (status === 503) return new VenueError('maintenance', message, { venue: VENUE });
  // 401/403 come from Yahoo refusing the client (a block, a cookie or crumb it wants), other
  // statuses from something that is not the chart API (a wrong base URL, a proxy).
  return new VenueError('network', message, { venue: VENUE });
}

/** Yahoo's own error object, mapped by its code; the status decides when the code says nothing more. */
function chartError(error: ChartError, status: number, what: string): VenueError {
  const description = error.description ?? error.code;
  const byCode: Readonly<Record<string, VenueErrorCode>> = {
    'Not Found': 'unknown_asset',
    'Bad Request': 'bad_request',
    'Unprocessable Entity': 'bad_request',
  };
  const code = byCode[error.code];
  if (code !== undefined) return new VenueError(code, `${what}: ${description}`, { venue: VENUE });
  const fallback = statusError(status >= 400 ? status : 502, what);
  return new VenueError(fallback.code, `${what}: ${error.code}: ${description}`, {
    venue: VENUE,
    retryable: fallback.retryable,
  });
}

/** A rejected `fetch` or body read: the deadline, or the connection. */
function transportError(cause: unknown, what: string, timeoutMs: number): VenueError {
  if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) {
    return new VenueError('timeout', `${what}: no answer within ${timeoutMs} ms`, { venue: VENUE, cause });
  }
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new VenueError('network', `${what}: ${detail}`, { venue: VENUE, cause });
}

/**
 * Reads one chart. Throws `VenueError`: `unknown_asset` (Yahoo knows no such symbol) and
 * `bad_request` (an interval or range Yahoo refuses), not retryable; `rate_limited` (HTTP 429, with
 * `retryAfterMs` from `Retry-After`), `maintenance` (503), `timeout` (no full answer within
 * `timeoutMs`) and `network` (other statuses, refused connections, and any body that is not the
 * chart format: not JSON, or JSON of another shape), all retryable. A body Yahoo changed the format
 * of will fail again, but it is the source failing: the guard's circuit must count it and stored
 * candles must be served meanwhile, which a non-retryable error would prevent.
 */
export async function fetchChart(config: ChartClientConfig, query: ChartQuery): Promise<ChartResult> {
  const what = `yahoo ${query.symbol} ${query.interval}`;
  const url = new URL(`${config.baseUrl.replace(/\/+$/, '')}/v8/finance/chart/${encodeURIComponent(query.symbol)}`);
  url.searchParams.set('interval', query.interval);
  url.searchParams.set('period1', String(Math.floor(query.from / 1000)));
  url.searchParams.set('period2', String(Math.ceil(query.to / 1000)));
  url.searchParams.set('includePrePost', 'false');

  let response: Response;
  let text: string;
  try {
    // The deadline covers the body too: a server that sends headers and then stalls still times out.
    response = await config.fetch(url, { headers: HEADERS, signal: AbortSignal.timeout(config.timeoutMs) });
    text = await response.text();
  } catch (cause) {
    throw transportError(cause, what, config.timeoutMs);
  }

  if (response.status === 429) {
    throw new VenueError('rate_limited', `${what}: HTTP 429`, {
      venue: VENUE,
      retryAfterMs: retryAfterMs(response.headers.get('retry-after'), config.now()),
    });
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    if (!response.ok) throw statusError(response.status, what);
    throw new VenueError('network', `${what}: the answer is not JSON`, { venue: VENUE, cause });
  }

  const body = chartBodySchema.safeParse(json);
  if (body.success && body.data.chart.error !== null && body.data.chart.error !== undefined) {
    throw chartError(body.data.chart.error, response.status, what);
  }
  if (!response.ok) throw statusError(response.status, what);
  if (!body.success) {
    const issue = body.error.issues[0];
    const where = issue === undefined ? '' : ` at ${issue.path.join('.') || '(root)'}: ${issue.message}`;
    throw new VenueError('network', `${what}: unexpected chart format${where}`, {
      venue: VENUE,
      cause: body.error,
    });
  }
  const result = body.data.chart.result?.[0];
  if (result === undefined) {
    throw new VenueError('network', `${what}: the answer holds no chart`, { venue: VENUE });
  }
  const n = result.timestamp?.length ?? 0;
  const quote = result.indicators.quote[0];
  // Prices must come with every bar; a missing volume array is read as no volume reported.
  const prices = quote === undefined ? [] : [quote.open, quote.high, quote.low, quote.close];
  const columns = quote?.volume === undefined ? prices : [...prices, quote.volume];
  if (n > 0 && (prices.length === 0 || columns.some((a) => a === undefined || a.length !== n))) {
    throw new VenueError('network', `${what}: quote arrays do not match the ${n} timestamps`, {
      venue: VENUE,
    });
  }
  return result;
}
