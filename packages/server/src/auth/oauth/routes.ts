/**
 * The authorization server's HTTP surface. These routes sit outside the `/v1` `/v2` envelope: the
 * RFCs define their bodies (metadata documents, RFC 6749 JSON errors, redirects, the consent page),
 * but they get the platform steps (rate limit and the rest) like every route.
 */
import type { Context, Hono } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { addressGroup } from '../../platform/client-ip.js';
import type { AppEnv } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import { before, type Step } from '../../platform/pipeline.js';
import { secretHash } from '../secrets.js';
import { liveSession, login } from '../users.js';
import { baseUrlOf } from './base.js';
import { consentHtml, errorHtml } from './consent.js';
import {
  approve,
  authenticateClient,
  authorizationRequest,
  authorizationServerMetadata,
  exchangeCode,
  OAuthError,
  RedirectError,
  refresh,
  registerClient,
} from './service.js';

/** The cookie (and header) that carries a login session into the consent step. */
export const SESSION_COOKIE = 'x-session-token';

/** Parameters of the authorization request carried through the consent form. */
const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'resource',
  'scope',
] as const;

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** Metadata and the token endpoint are read by browser-based clients too. */
const CORS = { 'access-control-allow-origin': '*' };
const CORS_PREFLIGHT = {
  ...CORS,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, mcp-protocol-version',
  'access-control-max-age': '86400',
};
const PAGE_HEADERS = {
  ...NO_STORE,
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
};

/** String values of a form or JSON body (files and non-strings dropped). */
async function bodyParams(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  let raw: Record<string, unknown>;
  try {
    raw = type.includes('application/json')
      ? ((await c.req.json()) as Record<string, unknown>)
      : ((await c.req.parseBody()) as Record<string, unknown>);
  } catch {
    throw new OAuthError('invalid_request', 'The request body cannot be read');
  }
  const out: Record<string, string> = {};
  if (raw !== null && typeof raw === 'object') {
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') out[k] = v;
  }
  return out;
}

const oauthError = (c: Context<AppEnv>, e: OAuthError) =>
  c.json(e.body(), e.status, {
    ...NO_STORE,
    ...CORS,
    ...(e.status === 401 ? { 'www-authenticate': 'Basic realm="marketlens"' } : {}),
  });

/** The authorization request's own parameters, for the hidden fields of the consent form. */
function carried(params: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of AUTHORIZE_PARAMS) {
    const v = params[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** The live session of the request (x-session-token header, else the cookie), or null. */
async function requestSession(c: Context<AppEnv>) {
  const token = c.req.header('x-session-token') ?? getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  const deps = c.get('deps');
  return liveSession(deps.storage, token, deps.now());
}

/** Validates an authorization request; an error becomes the page or redirect it calls for. */
async function validated(c: Context<AppEnv>, base: string, params: Readonly<Record<string, string | undefined>>) {
  try {
    return { request: await authorizationRequest(c.get('deps'), base, params) };
  } catch (e) {
    if (e instanceof RedirectError) return { response: c.redirect(e.location(base), 302) };
    if (e instanceof OAuthError) return { response: c.html(errorHtml(e.error, e.description), 400, PAGE_HEADERS) };
    throw e;
  }
}

/** `/.well-known/oauth-authorization-server` and the `/oauth/*` endpoints. */
export function registerOAuthRoutes(app: Hono<AppEnv>, platform: Step): void {
  app.get(
    '/.well-known/oauth-authorization-server',
    // Not cached: the document names this server's base URL, and each answer is this server's own.
    before(platform, (c) => c.json(authorizationServerMetadata(baseUrlOf(c)), 200, { ...CORS, ...NO_STORE })),
  );

  for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke', '/.well-known/oauth-authorization-server']) {
    app.options(
      path,
      before(platform, (c) => c.body(null, 204, CORS_PREFLIGHT)),
    );
  }

  app.post(
    '/oauth/register',
    before(platform, async (c) => {
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        return oauthError(c, new OAuthError('invalid_client_metadata', 'The body must be a JSON object'));
      }
      try {
        const deps = c.get('deps');
        const from = addressGroup(c.get('clientIp'), deps.config.rateLimit.ipv6Prefix);
        return c.json(await registerClient(deps, body, from), 201, { ...NO_STORE, ...CORS });
      } catch (e) {
        if (e instanceof OAuthError) return oauthError(c, e);
        throw e;
      }
    }),
  );

  app.get(
    '/oauth/authorize',
    before(platform, async (c) => {
      const base = baseUrlOf(c);
      const params = c.req.query();
      const v = await validated(c, base, params);
      if (v.response) return v.response;
      const live = await requestSession(c);
      return c.html(
        consentHtml({
          clientName: v.request.client.name ?? v.request.client.id,
          redirectUri: v.request.redirect_uri,
          params: carried(params),
          email: live?.user.email ?? null,
        }),
        200,
        PAGE_HEADERS,
      );
    }),
  );

  app.post(
    '/oauth/authorize',
    before(platform, async (c) => {
      const base = baseUrlOf(c);
      // The decision must come from our own page; a cross-site form post is refused.
      const origin = c.req.header('origin');
      if (origin && origin !== new URL(base).origin && origin !== new URL(c.req.url).origin) {
        return c.html(errorHtml('access_denied', 'The approval did not come from this site'), 403, PAGE_HEADERS);
      }
      let form: Record<string, string>;
      try {
        form = await bodyParams(c);
      } catch (e) {
        if (e instanceof OAuthError) return c.html(errorHtml(e.error, e.description), 400, PAGE_HEADERS);
        throw e;
      }
      const v = await validated(c, base, form);
      if (v.response) return v.response;
      const { request } = v;
      if (form.action !== 'approve') {
        const denied = new RedirectError(
          request.redirect_uri,
          'access_denied',
          'The user denied access',
          request.state,
        );
        return c.redirect(denied.location(base), 302);
      }
      const deps = c.get('deps');
      let live = await requestSession(c);
      const page = (error: string, status: 401) =>
        c.html(
          consentHtml({
            clientName: request.client.name ?? request.client.id,
            redirectUri: request.redirect_uri,
            params: carried(form),
            email: null,
            error,
          }),
          status,
          PAGE_HEADERS,
        );
      if (!live) {
        if (!form.email || !form.password) return page('Sign in to approve.', 401);
        try {
          const grant = await login(deps.storage, form.email, form.password, deps.now(), deps.config.emailVerification);
          live = await liveSession(deps.storage, grant.token, deps.now());
          setCookie(c, SESSION_COOKIE, grant.token, {
            httpOnly: true,
            sameSite: 'Strict',
            secure: base.startsWith('https:'),
            path: '/oauth',
            expires: new Date(grant.expires_at),
          });
        } catch (e) {
          if (e instanceof AppError && e.name === 'InvalidCredentials') {
            const unverified = deps.config.emailVerification ? ', or the email address is not verified yet' : '';
            return page(`Email or password is wrong${unverified}.`, 401);
          }
          throw e;
        }
        if (!live) return page('Sign in to approve.', 401);
      }
      return c.redirect(await approve(deps, base, request, live.user, live.session.id), 302);
    }),
  );

  app.post(
    '/oauth/token',
    before(platform, async (c) => {
      const deps = c.get('deps');
      const base = baseUrlOf(c);
      try {
        const params = await bodyParams(c);
        const client = await authenticateClient(deps, params, c.req.header('authorization'));
        switch (params.grant_type) {
          case 'authorization_code':
            return c.json(await exchangeCode(deps, base, client, params), 200, { ...NO_STORE, ...CORS });
          case 'refresh_token':
            return c.json(await refresh(deps, base, client, params), 200, { ...NO_STORE, ...CORS });
          case undefined:
            throw new OAuthError('invalid_request', 'grant_type is missing');
          default:
            throw new OAuthError('unsupported_grant_type', `grant_type ${params.grant_type} is not supported`);
        }
      } catch (e) {
        if (e instanceof OAuthError) return oauthError(c, e);
        throw e;
      }
    }),
  );

  app.post(
    '/oauth/revoke',
    before(platform, async (c) => {
      const deps = c.get('deps');
      try {
        const params = await bodyParams(c);
        const client = await authenticateClient(deps, params, c.req.header('authorization'));
        if (!params.token) throw new OAuthError('invalid_request', 'token is missing');
        // RFC 7009 2.2: an unknown token is not an error.
        await deps.storage.oauth.revokeFamilyOf(secretHash(params.token), client.id, deps.now());
        return c.body(null, 200, { ...NO_STORE, ...CORS });
      } catch (e) {
        if (e instanceof OAuthError) return oauthError(c, e);
        throw e;
      }
    }),
  );
}
