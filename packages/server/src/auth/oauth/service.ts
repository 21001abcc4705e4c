/**
 * The OAuth 2.1 authorization server of `/mcp`: dynamic client registration (RFC 7591), the
 * authorization code grant with PKCE S256 only, audience-bound tokens (RFC 8707), refresh-token
 * rotation with reuse detection (RFC 9700 4.14), revocation (RFC 7009). The consent step uses the
 * user's login session, and every code and token is bound to that session: it stops working when
 * the session ends (logout or expiry), because the token check joins the live session.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { OAuthClientRecord, OAuthTokenRecord } from '../../storage/oauth-types.js';
import type { UserRecord } from '../../storage/types.js';
import { newSecret, secretHash } from '../secrets.js';

/** Access tokens live an hour; a client refreshes them. */
export const ACCESS_TOKEN_TTL_MS = 3_600_000;
/** Refresh tokens live 30 days (and never past their session: the token check joins it). */
export const REFRESH_TOKEN_TTL_MS = 30 * 86_400_000;
/** Authorization codes are single use and live two minutes. */
export const AUTH_CODE_TTL_MS = 120_000;
/**
 * A redeemed code is remembered this long (an access token's life), so that presenting it again
 * revokes the tokens it issued (RFC 6749 4.1.2); later it is dropped like an expired one.
 */
export const REDEEMED_CODE_KEEP_MS = ACCESS_TOKEN_TTL_MS;
/** The one scope: the MCP tools of the signed-in account. */
export const MCP_SCOPE = 'mcp';

/** An OAuth error response (RFC 6749 5.2, RFC 7591 3.2.2): `{ error, error_description }`. */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: 400 | 401 = 400,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/** The resource `/mcp` tokens are issued for (their audience) on a server whose base URL is `base`. */
export function mcpResource(base: string): string {
  return `${base}/mcp`;
}

/** RFC 8414 authorization server metadata. */
export function authorizationServerMetadata(base: string) {
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    scopes_supported: [MCP_SCOPE],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${base}/docs`,
  };
}

/** RFC 9728 protected resource metadata of `/mcp`. */
export function protectedResourceMetadata(base: string) {
  return {
    resource: mcpResource(base),
    authorization_servers: [base],
    scopes_supported: [MCP_SCOPE],
    bearer_methods_supported: ['header'],
    resource_name: 'marketlens MCP',
    resource_documentation: `${base}/mcp/manifest.json`,
  };
}

// ---- registration (RFC 7591) ----

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:', 'about:']);

/**
 * A redirect URI a client may register: https; http on a loopback host (RFC 8252 7.3); or a
 * private-use scheme of a native app (RFC 8252 7.1). Never a fragment.
 */
function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not a URL`;
  }
  if (url.hash !== '') return `${uri} has a fragment`;
  if (FORBIDDEN_SCHEMES.has(url.protocol)) return `${uri} uses a forbidden scheme`;
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) return `${uri}: http is allowed on loopback hosts only`;
  return null;
}

/**
 * Bounds of an unauthenticated registration (the body itself is capped at 8 KB): a name, at most
 * ten redirect URIs, every other text and list short.
 */
export const CLIENT_LIMITS = {
  clientName: 200,
  redirectUris: 10,
  redirectUri: 2000,
  /** Any other string of the metadata (URIs, scope, software id, a contact). */
  text: 2000,
  /** Any other list of the metadata (contacts, grant types). */
  list: 10,
} as const;
/** A client that never completed an authorization is dropped an hour after it registered. */
export const UNUSED_CLIENT_TTL_MS = 3_600_000;
/** An approved client is dropped once it has held no live token for this long since its approval (90 days). */
export const IDLE_CLIENT_TTL_MS = 90 * 86_400_000;
/** Unapproved clients one address (an IPv6 prefix) may hold at once; a registration past it is 429. */
export const MAX_UNAPPROVED_PER_ADDRESS = 20;
/** Clients one account may have approved; approving another drops the one it approved longest ago. */
export const MAX_CLIENTS_PER_ACCOUNT = 25;
/** At most this many registered clients; beyond it the oldest unused go, else registration is refused (503). */
export const MAX_CLIENTS = 10_000;

/** The first metadata field beyond {@link CLIENT_LIMITS}, as a message; null when none is. */
function clientLimitProblem(meta: Record<string, unknown>): string | null {
  for (const [field, value] of Object.entries(meta)) {
    if (field === 'redirect_uris' && Array.isArray(value)) {
      if (value.length > CLIENT_LIMITS.redirectUris) return `redirect_uris: at most ${CLIENT_LIMITS.redirectUris}`;
      if (value.some((u) => typeof u === 'string' && u.length > CLIENT_LIMITS.redirectUri))
        return `redirect_uris: each at most ${CLIENT_LIMITS.redirectUri} characters`;
    } else if (typeof value === 'string') {
      const max = field === 'client_name' ? CLIENT_LIMITS.clientName : CLIENT_LIMITS.text;
      if (value.length > max) return `${field}: at most ${max} characters`;
    } else if (Array.isArray(value)) {
      if (value.length > CLIENT_LIMITS.list) return `${field}: at most ${CLIENT_LIMITS.list} entries`;
      if (value.some((v) => typeof v === 'string' && v.length > CLIENT_LIMITS.text))
        return `${field}: each at most ${CLIENT_LIMITS.text} characters`;
    }
  }
  return null;
}

/**
 * Registers a client; the response is the RFC 7591 client information (secret only for confidential
 * clients). Registration is open, so it is bounded: field sizes ({@link CLIENT_LIMITS}), clients
 * unapproved after an hour or idle for 90 days dropped ({@link UNUSED_CLIENT_TTL_MS},
 * {@link IDLE_CLIENT_TTL_MS}), at most {@link MAX_UNAPPROVED_PER_ADDRESS} unapproved per
 * registering address group `from` (429 `RateLimited` past it), at most
 * {@link MAX_CLIENTS_PER_ACCOUNT} approved per account (see {@link approve}), and at most
 * {@link MAX_CLIENTS} in all (503 when all of them are in use, which one account or address
 * cannot bring about).
 */
export async function registerClient(deps: AppDeps, body: unknown, from: string | null = null) {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new OAuthError(
      field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field || 'body'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const meta = parsed.data;
  const tooLarge = clientLimitProblem(meta);
  if (tooLarge !== null) {
    throw new OAuthError(
      tooLarge.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      tooLarge,
    );
  }
  if (meta.redirect_uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris is empty');
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem);
  }
  const grants = meta.grant_types ?? ['authorization_code'];
  const unsupported = grants.filter((g) => g !== 'authorization_code' && g !== 'refresh_token');
  if (unsupported.length > 0) {
    throw new OAuthError('invalid_client_metadata', `unsupported grant_types: ${unsupported.join(', ')}`);
  }
  if (meta.response_types?.some((r) => r !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'only the response type code is supported');
  }
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  if (method !== 'none' && method !== 'client_secret_post' && method !== 'client_secret_basic') {
    throw new OAuthError('invalid_client_metadata', `unsupported token_endpoint_auth_method ${method}`);
  }
  const now = deps.now();
  const secret = method === 'none' ? null : newSecret('mlcs_');
  const client: OAuthClientRecord = {
    id: `mlc_${randomUUID()}`,
    secret_hash: secret === null ? null : secretHash(secret),
    name: meta.client_name ?? null,
    redirect_uris: meta.redirect_uris,
    token_endpoint_auth_method: method,
    metadata: { ...meta, grant_types: grants, response_types: ['code'], token_endpoint_auth_method: method },
    created_at: now,
    registered_from: from,
  };
  const stored = await deps.storage.oauth.createClientBounded(client, {
    max: MAX_CLIENTS,
    unusedBefore: now - UNUSED_CLIENT_TTL_MS,
    idleBefore: now - IDLE_CLIENT_TTL_MS,
    perAddress: MAX_UNAPPROVED_PER_ADDRESS,
    now,
  });
  if (stored === 'address') {
    throw new AppError(
      'RateLimited',
      `This address holds ${MAX_UNAPPROVED_PER_ADDRESS} clients not yet approved; approve one or wait an hour`,
      { 'retry-after': String(UNUSED_CLIENT_TTL_MS / 1000) },
    );
  }
  if (stored === 'full') throw new AppError('ServiceUnavailable', 'Client registration is full; retry later');
  return {
    ...client.metadata,
    client_id: client.id,
    client_id_issued_at: Math.floor(now / 1000),
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
  };
}

// ---- authorization ----

/** The parameters of an authorization request, validated. */
export interface AuthorizationRequest {
  client: OAuthClientRecord;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string | null;
  state: string | null;
}

/** Whether `uri` is one the client registered (a loopback redirect may change its port, RFC 8252 7.3). */
function registeredRedirect(client: OAuthClientRecord, uri: string): boolean {
  if (client.redirect_uris.includes(uri)) return true;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) return false;
  return client.redirect_uris.some((r) => {
    const reg = new URL(r);
    return (
      reg.protocol === 'http:' &&
      reg.hostname === url.hostname &&
      reg.pathname === url.pathname &&
      reg.search === url.search
    );
  });
}

/** An authorization error sent back to the client's redirect URI (RFC 6749 4.1.2.1). */
export class RedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly error: string,
    readonly description: string,
    readonly state: string | null,
  ) {
    super(description);
  }

  location(issuer: string): string {
    const url = new URL(this.redirectUri);
    url.searchParams.set('error', this.error);
    url.searchParams.set('error_description', this.description);
    if (this.state !== null) url.searchParams.set('state', this.state);
    url.searchParams.set('iss', issuer);
    return url.href;
  }
}

const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * Validates an authorization request. An unknown client or unregistered redirect URI is an
 * `OAuthError` shown to the user (never redirected, RFC 6749 4.1.2.1); anything else is a
 * `RedirectError` back to the client.
 */
export async function authorizationRequest(
  deps: AppDeps,
  base: string,
  params: Readonly<Record<string, string | undefined>>,
): Promise<AuthorizationRequest> {
  const clientId = params.client_id;
  if (!clientId) throw new OAuthError('invalid_request', 'client_id is missing');
  const client = await deps.storage.oauth.clientById(clientId);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client_id');
  const redirectUri = params.redirect_uri ?? (client.redirect_uris.length === 1 ? client.redirect_uris[0] : undefined);
  if (!redirectUri || !registeredRedirect(client, redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri is missing or not registered for this client');
  }
  const state = params.state ?? null;
  const fail = (error: string, description: string) => new RedirectError(redirectUri, error, description, state);
  if (params.response_type !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
  if (!params.code_challenge) throw fail('invalid_request', 'code_challenge is required (PKCE)');
  if (params.code_challenge_method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256');
  if (!PKCE_CHALLENGE.test(params.code_challenge))
    throw fail('invalid_request', 'code_challenge is not an S256 challenge');
  const resource = mcpResource(base);
  if (params.resource !== resource) throw fail('invalid_target', `resource must be ${resource}`);
  const scope = params.scope?.trim() || null;
  if (scope?.split(/\s+/).some((s) => s !== MCP_SCOPE)) {
    throw fail('invalid_scope', `the only scope is ${MCP_SCOPE}`);
  }
  return { client, redirect_uri: redirectUri, code_challenge: params.code_challenge, resource, scope, state };
}

/**
 * Issues a code for an approved request, bound to the user's session; returns the redirect
 * location. The first approval of a client counts against the user's {@link MAX_CLIENTS_PER_ACCOUNT}.
 */
export async function approve(
  deps: AppDeps,
  issuer: string,
  request: AuthorizationRequest,
  user: UserRecord,
  sessionId: string,
): Promise<string> {
  const code = newSecret('mlac_');
  const now = deps.now();
  await deps.storage.oauth.createCode(
    {
      code_hash: secretHash(code),
      client_id: request.client.id,
      user_id: user.id,
      session_id: sessionId,
      redirect_uri: request.redirect_uri,
      code_challenge: request.code_challenge,
      resource: request.resource,
      scope: request.scope,
      created_at: now,
      expires_at: now + AUTH_CODE_TTL_MS,
    },
    deps.config.oauthClientsPerAccount ?? MAX_CLIENTS_PER_ACCOUNT,
  );
  const url = new URL(request.redirect_uri);
  url.searchParams.set('code', code);
  if (request.state !== null) url.searchParams.set('state', request.state);
  url.searchParams.set('iss', issuer);
  return url.href;
}

// ---- token endpoint ----

const equalSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The client of a token or revocation request: public by `client_id`, confidential by its secret (basic or post). */
export async function authenticateClient(
  deps: AppDeps,
  params: Readonly<Record<string, string | undefined>>,
  authorization: string | undefined,
): Promise<OAuthClientRecord> {
  let id = params.client_id;
  let secret = params.client_secret;
  if (authorization?.toLowerCase().startsWith('basic ')) {
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Malformed basic credentials', 401);
    // RFC 6749 2.3.1: both parts are form-urlencoded; a broken escape is a malformed credential, not a crash.
    try {
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    } catch {
      throw new OAuthError('invalid_client', 'Malformed basic credentials', 401);
    }
  }
  if (!id) throw new OAuthError('invalid_client', 'client_id is missing', 401);
  const client = await deps.storage.oauth.clientById(id);
  if (!client) throw new OAuthError('invalid_client', 'Unknown client', 401);
  if (client.secret_hash !== null) {
    if (!secret || !equalSecret(secretHash(secret), client.secret_hash)) {
      throw new OAuthError('invalid_client', 'Client authentication failed', 401);
    }
  }
  return client;
}

/** A token response (RFC 6749 5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

function tokenPair(
  now: number,
  family: string,
  owner: Pick<OAuthTokenRecord, 'client_id' | 'user_id' | 'session_id' | 'resource' | 'scope'>,
): { records: OAuthTokenRecord[]; response: TokenResponse } {
  const access = newSecret('mla_');
  const refresh = newSecret('mlr_');
  const base = { ...owner, family_id: family, created_at: now, used_at: null, revoked_at: null };
  return {
    records: [
      { ...base, token_hash: secretHash(access), kind: 'access', expires_at: now + ACCESS_TOKEN_TTL_MS },
      { ...base, token_hash: secretHash(refresh), kind: 'refresh', expires_at: now + REFRESH_TOKEN_TTL_MS },
    ],
    response: {
      access_token: access,
      token_type: 'Bearer',
      expires_in: Math.floor(ACCESS_TOKEN_TTL_MS / 1000),
      refresh_token: refresh,
      scope: owner.scope ?? MCP_SCOPE,
    },
  };
}

/** The S256 challenge of a PKCE verifier. */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** `grant_type=authorization_code`: the code (single use), its client, redirect URI, PKCE verifier and audience. */
export async function exchangeCode(
  deps: AppDeps,
  base: string,
  client: OAuthClientRecord,
  params: Readonly<Record<string, string | undefined>>,
): Promise<TokenResponse> {
  const { code, code_verifier: verifier, redirect_uri: redirectUri, resource } = params;
  if (!code) throw new OAuthError('invalid_request', 'code is missing');
  if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is missing (PKCE)');
  const now = deps.now();
  let response: TokenResponse | undefined;
  const found = await deps.storage.oauth.redeemCode(secretHash(code), now, now + REDEEMED_CODE_KEEP_MS, (record) => {
    // Thrown inside the redemption: the code is used up and nothing is issued.
    if (record.client_id !== client.id) throw new OAuthError('invalid_grant', 'The code is invalid or expired');
    if (redirectUri !== undefined && redirectUri !== record.redirect_uri) {
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    }
    if (!PKCE_VERIFIER.test(verifier) || !equalSecret(s256(verifier), record.code_challenge)) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    if (resource !== undefined && resource !== record.resource) {
      throw new OAuthError('invalid_target', `resource must be ${record.resource}`);
    }
    if (record.resource !== mcpResource(base))
      throw new OAuthError('invalid_target', 'The code is for another resource');
    const pair = tokenPair(now, randomUUID(), record);
    response = pair.response;
    return pair.records;
  });
  if (found.status === 'replayed') {
    throw new OAuthError('invalid_grant', 'The code was already used; the tokens issued from it are revoked');
  }
  if (found.status === 'ended') throw new OAuthError('invalid_grant', 'The login session has ended');
  if (found.status === 'invalid' || response === undefined) {
    throw new OAuthError('invalid_grant', 'The code is invalid or expired');
  }
  // Housekeeping rides on logins, which are rare next to tool calls: expired codes and tokens go.
  await deps.storage.oauth.deleteExpired(now);
  await deps.storage.oauth.deleteUnusedClients(now - UNUSED_CLIENT_TTL_MS);
  await deps.storage.oauth.deleteIdleClients(now - IDLE_CLIENT_TTL_MS, now);
  return response;
}

/** `grant_type=refresh_token`: rotates the refresh token; a rotated one presented again ends its family. */
export async function refresh(
  deps: AppDeps,
  base: string,
  client: OAuthClientRecord,
  params: Readonly<Record<string, string | undefined>>,
): Promise<TokenResponse> {
  const token = params.refresh_token;
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is missing');
  if (params.resource !== undefined && params.resource !== mcpResource(base)) {
    throw new OAuthError('invalid_target', `resource must be ${mcpResource(base)}`);
  }
  const now = deps.now();
  let response: TokenResponse | undefined;
  const found = await deps.storage.oauth.rotateRefresh(secretHash(token), client.id, now, (old) => {
    // Thrown inside the rotation, so nothing is rotated for a token of another audience.
    if (old.resource !== mcpResource(base)) throw new OAuthError('invalid_target', 'The token is for another resource');
    const pair = tokenPair(now, old.family_id, old);
    response = pair.response;
    return pair.records;
  });
  if (found.status === 'reused') {
    throw new OAuthError('invalid_grant', 'The refresh token was already used; its tokens are revoked');
  }
  if (found.status === 'invalid' || response === undefined) {
    throw new OAuthError('invalid_grant', 'The refresh token is invalid, expired, revoked, or its session ended');
  }
  if (found.token.resource !== mcpResource(base))
    throw new OAuthError('invalid_target', 'The token is for another resource');
  return response;
}

/** The live access token of a bearer credential for `/mcp` on `base`, or null (unknown, expired, revoked, wrong audience, session ended). */
export async function verifyAccessToken(deps: AppDeps, base: string, token: string): Promise<OAuthTokenRecord | null> {
  const record = await deps.storage.oauth.liveAccessToken(secretHash(token), deps.now());
  if (!record || record.resource !== mcpResource(base)) return null;
  return record;
}
