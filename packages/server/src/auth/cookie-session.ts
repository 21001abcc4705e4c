/**
 * The web app's session: the same session token as `x-session-token`, carried in an `HttpOnly`
 * `SameSite=Strict` cookie (`Secure` over https) so that no script of the page can read it. A
 * client asks for it by sending `x-session-cookie: 1` to sign-up or sign-in; header-token clients
 * are untouched. A request authenticated by the cookie that changes state must come from a page
 * of this server (its `Origin`), on top of what `SameSite=Strict` already refuses.
 */
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import type { AppEnv } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import { requestHeader } from '../platform/request-header.js';

/** The cookie's name. */
export const APP_SESSION_COOKIE = 'marketlens_session';
/** The request header by which sign-up and sign-in are asked to set the cookie. */
export const SESSION_COOKIE_HEADER = 'x-session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request reached the server over https (directly or, as configured, behind a proxy). */
function overHttps(c: Context<AppEnv>): boolean {
  const configured = c.get('deps').config.publicUrl;
  if (configured) return configured.startsWith('https:');
  return new URL(c.req.url).protocol === 'https:';
}

/** The origin pages of this server have: the configured public URL's, else the request's own. */
function ownOrigin(c: Context<AppEnv>): string {
  const configured = c.get('deps').config.publicUrl;
  return new URL(configured || c.req.url).origin;
}

/**
 * Refuses a state-changing request whose `Origin` is not this server's (403 `OriginNotAllowed`).
 * Browsers send `Origin` on every POST, PATCH and DELETE, so a missing one is refused too: the
 * cookie is only ever sent by a browser.
 */
export function checkSameOrigin(c: Context<AppEnv>): void {
  if (SAFE_METHODS.has(c.req.method)) return;
  const origin = requestHeader(c, 'origin');
  if (origin !== undefined && origin === ownOrigin(c)) return;
  throw new AppError(
    'OriginNotAllowed',
    'A request signed in by the session cookie must come from a page of this server (its Origin)',
  );
}

/** Whether the client asked for the session in the cookie. */
export function wantsSessionCookie(c: Context<AppEnv>): boolean {
  return c.req.header(SESSION_COOKIE_HEADER) === '1';
}

/** The session token of the cookie, or undefined. */
export function cookieSessionToken(c: Context<AppEnv>): string | undefined {
  if (requestHeader(c, 'cookie') === undefined) return undefined;
  const token = getCookie(c, APP_SESSION_COOKIE);
  return token === undefined || token === '' ? undefined : token;
}

/** The `Set-Cookie` value that holds `token` until `expiresAt` (ms). */
export function sessionCookie(c: Context<AppEnv>, token: string, expiresAt: number): string {
  return serialize(APP_SESSION_COOKIE, token, {
    httpOnly: true,
    secure: overHttps(c),
    sameSite: 'Strict',
    path: '/',
    expires: new Date(expiresAt),
  });
}

/** The `Set-Cookie` value that removes the cookie. */
export function clearedSessionCookie(c: Context<AppEnv>): string {
  return serialize(APP_SESSION_COOKIE, '', {
    httpOnly: true,
    secure: overHttps(c),
    sameSite: 'Strict',
    path: '/',
    maxAge: 0,
  });
}

/**
 * An error met while resolving a cookie's session: an invalid or expired session also removes the
 * cookie, so the page is answered as signed out from its next request on.
 */
export function clearingCookieOn(c: Context<AppEnv>, err: unknown): unknown {
  if (err instanceof AppError && err.name === 'InvalidSession') {
    return new AppError('InvalidSession', err.message, { ...err.headers, 'set-cookie': clearedSessionCookie(c) });
  }
  return err;
}
