/**
 * Weight of one request against the per-IP budget, by `METHOD path` (hono path syntax).
 * Routes not listed weigh {@link DEFAULT_WEIGHT}. Password routes are heavy because scrypt is.
 */
export const RATE_LIMIT_WEIGHTS: Readonly<Record<string, number>> = {
  'POST /v1/auth/signup': 20,
  'POST /v1/auth/login': 20,
  'POST /v1/auth/logout': 1,
  'POST /v1/users/api_keys': 5,
  'GET /v1/users/api_keys': 1,
  'DELETE /v1/users/api_keys/:key_id': 1,
  'GET /v1/users/api_keys/credits': 1,
  'GET /v2/config': 1,
  'GET /docs': 1,
  'GET /docs/openapi.json': 2,
  'GET /releases.atom': 1,
};

export const DEFAULT_WEIGHT = 1;

export function weightOf(method: string, path: string): number {
  return RATE_LIMIT_WEIGHTS[`${method} ${path}`] ?? DEFAULT_WEIGHT;
}
