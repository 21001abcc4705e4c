/**
 * Weight of one request against the per-IP budget, by `METHOD path` (hono path syntax).
 * Routes not listed weigh {@link DEFAULT_WEIGHT}. Password routes are heavy because scrypt is.
 */
export const RATE_LIMIT_WEIGHTS: Readonly<Record<string, number>> = {
  'POST /v1/auth/signup': 20,
  'POST /v1/auth/login': 20,
  'POST /v1/auth/logout': 1,
  // Resending mails someone (the per-account limit is silent, so this one bounds an address).
  'POST /v1/auth/verify/resend': 20,
  'GET /v1/auth/verify': 2,
  // A reset request mails someone, as a resend does; its confirmation and an account deletion hash
  // or check a password (scrypt).
  'POST /v1/auth/password/reset': 20,
  'POST /v1/auth/password/reset/confirm': 20,
  'DELETE /v1/users/me': 20,
  // The OAuth consent step may log in (scrypt). Registration is open and writes a client that lives
  // a day unused: 100 units, so one address registers at most 20 clients a minute.
  'POST /oauth/authorize': 20,
  'POST /oauth/register': 100,
  'POST /oauth/token': 2,
  'POST /v1/users/api_keys': 5,
  'GET /v1/users/api_keys': 1,
  'DELETE /v1/users/api_keys/:key_id': 1,
  'GET /v1/users/api_keys/credits': 1,
  'GET /v2/config': 1,
  // Creating or editing an alert reads the market (ticker, candles, maybe an analysis).
  'POST /v1/notifications': 5,
  'PATCH /v1/notifications/:notification_id': 5,
  'GET /v1/notifications': 3,
  'POST /v1/devices': 2,
  'GET /docs': 1,
  'GET /docs/openapi.json': 2,
  'GET /releases.atom': 1,
  // Connecting calls the venue to verify the credentials.
  'POST /v1/connections/user': 10,
  'GET /v1/connections/user': 2,
  // Orders group every matching fill before paging; a position analysis reads candles and assesses.
  'GET /v1/orders': 2,
  'GET /v2/positions/:position_id/analysis': 3,
  'GET /v2/portfolio/summary': 2,
  // The volume standing reads 30 days of fills of every affiliate connection.
  'GET /v1/promotions/volume': 5,
  // A claim is one write transaction; weighted to slow down UID guessing.
  'POST /v1/promotions/:connection_id/sign_up': 5,
  // Spectate reads the eligibility (30 days of fills) and, per open position, a ticker and candles.
  'GET /pilot/spectate': 5,
  'GET /pilot/spectate/track-record': 3,
  'GET /v2/analysis/:asset_id/track-record': 2,
  // The service-wide record: sums kept for a minute, one grouped query when they lapse.
  'GET /v2/track-record': 2,
  // Opening a stream resolves and gates each subscription; what it sends later costs no request.
  'GET /v2/stream': 5,
  // Market data, weighed by what it costs to serve (scripts/route-costs.mjs; docs/reliability.md):
  // about one unit per millisecond of one core for what the caller controls. An analysis of a new
  // asset, timeframe or depth is computed (35-75 ms measured at 500-1000 candles); the signal and the
  // overview compute one when their hour cache misses; the screener, signal list, insights and
  // Fear & Greed list are computed once per asset class for everyone and served from that cache.
  'GET /v2/analysis': 20,
  'GET /v2/analysis/:asset_id': 20,
  'GET /v2/analysis/:asset_id/signal': 10,
  'GET /v2/analysis/:asset_id/overview': 10,
  'GET /v2/assets/signals': 5,
  'GET /v2/assets/screener': 2,
  'GET /v2/insights': 2,
  'GET /v2/insights/fear_greed': 2,
  'GET /v2/assets/': 2,
  'GET /v2/assets/favorites': 2,
  'GET /v2/assets/popular': 2,
  // MCP: a message costs one unit, and each tool call what its REST route costs (mcp/backend.ts);
  // the operations without a REST route are weighed here by what they do. Registering a webhook
  // checks the URL, encrypts a secret and writes; listing and deleting are one query.
  'MCP register_alert_webhook': 5,
  'MCP list_alert_webhooks': 1,
  'MCP delete_alert_webhook': 1,
  // A resource subscription resolves and checks the session's candles, as opening a stream does;
  // its reads cost what the tools doing the same read cost.
  'MCP resources/subscribe': 2,
  // The manifest and `tools/list` carry every tool's schemas (about 290 KB): weighed by size, a
  // unit per 16 KiB sent, though the manifest is built once and served from memory.
  'GET /mcp/manifest.json': 20,
  'MCP tools/list': 20,
};

export const DEFAULT_WEIGHT = 1;

export function weightOf(method: string, path: string): number {
  return RATE_LIMIT_WEIGHTS[`${method} ${path}`] ?? DEFAULT_WEIGHT;
}
