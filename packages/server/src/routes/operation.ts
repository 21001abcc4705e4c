import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { ErrorResponseSchema } from '../envelope/envelope.js';
import type { ErrorStatus } from '../errors/app-error.js';
import { type AuthSpec, authorize, securityOf } from '../middleware/auth/index.js';

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request (bad parameters, malformed JSON, API key in the query string)',
  401: 'Missing or invalid credential, or a credential this operation does not accept',
  402: 'Paid feature',
  403: 'Forbidden (e.g. unsupported client version)',
  404: 'Not found',
  410: 'Gone',
  422: 'Unprocessable',
  429: 'Request budget or API-key allowance exceeded; see retry-after',
  500: 'Internal error',
  503: 'Service unavailable',
};

const error = (status: ErrorStatus) => ({
  description: DESCRIPTIONS[status],
  content: { 'application/json': { schema: ErrorResponseSchema } },
  ...(status === 429
    ? {
        headers: {
          'retry-after': { description: 'Seconds until the budget resets', schema: { type: 'integer' as const } },
        },
      }
    : {}),
});

type OperationConfig = Omit<RouteConfig, 'security' | 'middleware'> & { operationId: string; summary: string };

/**
 * One REST operation: its auth spec becomes both the `authorize` middleware and the OpenAPI
 * `security`, and every operation documents the failures every operation can have.
 */
export type Operation<R extends OperationConfig> = R & {
  security: Record<string, string[]>[];
  middleware: MiddlewareHandler<AppEnv>;
};

export function operation<const R extends OperationConfig>(
  auth: AuthSpec,
  route: R,
  errors: readonly ErrorStatus[] = [],
): Operation<R> {
  const statuses = new Set<ErrorStatus>([400, 403, 429, 500, ...errors]);
  if (auth.session || auth.apiKey) statuses.add(401);
  const errorResponses: Record<string, ReturnType<typeof error>> = {};
  for (const s of [...statuses].sort()) errorResponses[String(s)] = error(s);
  return createRoute({
    ...route,
    security: securityOf(auth),
    middleware: authorize(auth),
    responses: { ...errorResponses, ...route.responses },
  }) as unknown as Operation<R>;
}
