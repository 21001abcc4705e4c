import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { envelopeOf, MeSchema, ok } from '@marketlens/contract';
import type { AppEnv } from '../../env.js';
import { AppError } from '../../errors/app-error.js';
import { PUBLIC, SESSION_ONLY } from '../../middleware/auth/index.js';
import { login, logout, type SessionGrant, signup } from '../../services/accounts.js';
import { operation } from '../operation.js';

const Credentials = z
  .object({
    email: z.email().max(254).openapi({ example: 'ada@example.com' }),
    password: z.string().min(8).max(256).openapi({ example: 'correct horse battery' }),
  })
  .openapi('Credentials');

const SessionSchema = z
  .object({
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      created_at: z.iso.datetime(),
    }),
    session_token: z.string().openapi({ description: 'Send as `x-session-token`. Shown only here.' }),
    expires_at: z.iso.datetime(),
  })
  .openapi('Session');

const sessionView = (g: SessionGrant) => ({
  user: { id: g.user.id, email: g.user.email, created_at: new Date(g.user.created_at).toISOString() },
  session_token: g.token,
  expires_at: new Date(g.expires_at).toISOString(),
});

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const body = { body: { content: { 'application/json': { schema: Credentials } }, required: true } };

const signupRoute = operation(
  PUBLIC,
  {
    method: 'post',
    path: '/v1/auth/signup',
    operationId: 'signup',
    tags: ['Auth'],
    summary: 'Create an account and open a session',
    description: 'New accounts start on the free tier with the favorites bitcoin, ethereum and solana.',
    request: body,
    responses: { 200: json(envelopeOf(SessionSchema, 'SessionEnvelope'), 'Account created, session opened') },
  },
  [422],
);

const loginRoute = operation(PUBLIC, {
  method: 'post',
  path: '/v1/auth/login',
  operationId: 'login',
  tags: ['Auth'],
  summary: 'Open a session',
  request: body,
  responses: { 200: json(envelopeOf(SessionSchema), 'Session opened') },
});

const logoutRoute = operation(SESSION_ONLY, {
  method: 'post',
  path: '/v1/auth/logout',
  operationId: 'logout',
  tags: ['Auth'],
  summary: 'End the current session',
  responses: { 200: json(envelopeOf(z.null()), 'Session ended') },
});

const meRoute = operation(SESSION_ONLY, {
  method: 'get',
  path: '/v1/auth/me',
  operationId: 'getMe',
  tags: ['Auth'],
  summary: 'The account of the current session',
  responses: { 200: json(envelopeOf(MeSchema, 'MeEnvelope'), 'The signed-in account') },
});

export function registerAuthRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openapi(meRoute, (c) => {
    const caller = c.get('caller');
    // SESSION_ONLY: the platform has refused every other caller before the handler runs.
    if (caller.kind !== 'session') throw new AppError('Unauthorized', 'A session is required');
    const u = caller.user;
    c.header('cache-control', 'private, no-store');
    return c.json(
      ok({
        user: { id: u.id, email: u.email, created_at: new Date(u.created_at).toISOString() },
        tier: caller.tier,
        tier_expires_at: caller.tier_expires_at === null ? null : new Date(caller.tier_expires_at).toISOString(),
      }),
      200,
    );
  });
  app.openapi(signupRoute, async (c) => {
    const { email, password } = c.req.valid('json');
    const g = await signup(c.get('deps').storage, email, password, c.get('deps').now());
    c.header('cache-control', 'no-store');
    return c.json(ok(sessionView(g)), 200);
  });
  app.openapi(loginRoute, async (c) => {
    const { email, password } = c.req.valid('json');
    const g = await login(c.get('deps').storage, email, password, c.get('deps').now());
    c.header('cache-control', 'no-store');
    return c.json(ok(sessionView(g)), 200);
  });
  app.openapi(logoutRoute, async (c) => {
    await logout(c.get('deps').storage, c.req.header('x-session-token') ?? '');
    return c.json(ok(null), 200);
  });
}
