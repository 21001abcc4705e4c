/**
 * The remote MCP endpoint: `{base}/mcp`, Streamable HTTP, OAuth 2.1 bearer tokens only.
 *
 * Each POST gets its own MCP server and transport (JSON responses), bound to the token's user, so
 * every request is authenticated afresh (token, audience, and the login session the token was
 * issued under) and any instance behind a load balancer can answer it. `initialize` also opens a
 * session (`Mcp-Session-Id`, ./sessions.ts) for what must outlive a request: resource
 * subscriptions, the logging level, and the GET stream their notifications go on; DELETE ends it.
 * GET and DELETE without a session id answer 405.
 *
 * Refusals follow RFC 6750 / RFC 9728: 401 with `WWW-Authenticate: Bearer resource_metadata="..."`,
 * plus `error="invalid_token"` when a token was sent and rejected. An API key or a session token is
 * refused the same way (bearer tokens are accepted on /mcp only).
 *
 * A browser page of another origin is refused (403) before the token is looked at, and a JSON-RPC
 * batch (400, JSON-RPC -32600) before any of its messages runs: one request, one message.
 */

import { errorBody } from '@marketlens/contract';
import { createMcpServer, manifest } from '@marketlens/mcp';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context, Hono } from 'hono';
import { baseUrlOf } from '../auth/oauth/base.js';
import { MCP_SCOPE, mcpResource, protectedResourceMetadata, verifyAccessToken } from '../auth/oauth/service.js';
import { authenticated, isDisabled } from '../auth/users.js';
import { addressGroup } from '../platform/client-ip.js';
import type { AppEnv } from '../platform/deps.js';
import { AppError } from '../platform/errors/app-error.js';
import type { ErrorLogger } from '../platform/errors/handler.js';
import { Lru } from '../platform/lru.js';
import { before, type PlatformSteps } from '../platform/pipeline.js';
import { weightOf } from '../platform/rate-limit/weights.js';
import type { UseCases } from '../use-cases.js';
import { type McpCaller, mcpBackend } from './backend.js';
import { FairGate, MCP_FAIRNESS } from './fair-gate.js';
import { mcpSessionsOf } from './sessions.js';

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const NO_STORE = { 'cache-control': 'no-store' };

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'www-authenticate, mcp-session-id, mcp-protocol-version',
};

export interface McpRouteOptions {
  /** Version the MCP server reports (the service version). */
  version: string;
  logError?: ErrorLogger;
}

/**
 * Refuses a `/mcp` request sent by a page of another site (its `Origin`), as the Streamable HTTP
 * transport requires against DNS rebinding and cross-site calls: allowed are the server's own
 * origin and `config.mcpAllowedOrigins`. A request without `Origin` is not from a browser page and
 * passes; it still needs its bearer token.
 */
function checkOrigin(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  if (origin === new URL(baseUrlOf(c)).origin) return;
  if (c.get('deps').config.mcpAllowedOrigins?.includes(origin)) return;
  throw new AppError('OriginNotAllowed', 'Pages of this origin may not call /mcp');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A JSON-RPC error answer, as the transport writes its own. */
function jsonRpcError(c: Context<AppEnv>, code: number, message: string) {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, 400, CORS);
}

/** A 401 with the RFC 9728 challenge; `error` (RFC 6750) when a token was sent and refused. */
function refuse(c: Context<AppEnv>, code: AppError, error?: 'invalid_token' | 'invalid_request') {
  const metadata = `${baseUrlOf(c)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;
  const challenge = [`Bearer resource_metadata="${metadata}"`, `scope="${MCP_SCOPE}"`];
  if (error) challenge.push(`error="${error}"`, `error_description="${code.message.replace(/["\\]/g, '')}"`);
  return c.json(errorBody(code.code, code.message), 401, { ...CORS, 'www-authenticate': challenge.join(', ') });
}

/** The caller of a `/mcp` request, or the 401 response refusing it. */
async function bearerCaller(
  c: Context<AppEnv>,
): Promise<{ caller: McpCaller; clientId: string; tokenLive: () => Promise<boolean> } | Response> {
  const header = c.req.header('authorization');
  if (header === undefined) {
    if (c.req.header('x-api-key') !== undefined) {
      return refuse(c, new AppError('ApiKeyNotAccepted', 'API keys do not reach /mcp; use an OAuth access token'));
    }
    if (c.req.header('x-session-token') !== undefined) {
      return refuse(c, new AppError('Unauthorized', 'Session tokens do not reach /mcp; use an OAuth access token'));
    }
    return refuse(c, new AppError('Unauthorized', 'An OAuth access token is required (Authorization: Bearer)'));
  }
  const match = /^Bearer +([A-Za-z0-9._~+/=-]+)$/i.exec(header.trim());
  if (!match?.[1]) {
    return refuse(c, new AppError('InvalidToken', 'The Authorization header is not a bearer token'), 'invalid_request');
  }
  const deps = c.get('deps');
  const token = await verifyAccessToken(deps, baseUrlOf(c), match[1]);
  const user = token ? await deps.storage.users.byId(token.user_id) : null;
  // A disabled account's tokens are revoked when it is disabled; one issued in a race is refused here.
  if (!token || !user || isDisabled(user)) {
    return refuse(
      c,
      new AppError(
        'InvalidToken',
        'The access token is invalid, expired, revoked, for another resource, or its session ended',
      ),
      'invalid_token',
    );
  }
  const clientId = token.client_id;
  const base = baseUrlOf(c);
  const secret = match[1];
  const tokenLive = async () => (await verifyAccessToken(deps, base, secret)) !== null;
  try {
    const a = await authenticated(deps.storage, user, deps.now());
    return {
      clientId,
      tokenLive,
      caller: { kind: 'session', user, tier: a.tier, tier_expires_at: a.tier_expires_at, api_key_id: null },
    };
  } catch {
    // The subscription could not be read: served as free, as on REST.
    return {
      clientId,
      tokenLive,
      caller: { kind: 'session', user, tier: null, tier_expires_at: null, api_key_id: null },
    };
  }
}

/** `/mcp`, `/mcp/manifest.json` and the protected resource metadata (bare and `/mcp`-suffixed). */
export function registerMcpRoutes(
  app: Hono<AppEnv>,
  platform: PlatformSteps,
  useCases: UseCases,
  options: McpRouteOptions,
): void {
  // Documents naming the base URL are not cached: each answer is this server's, never a stored one.
  const metadata = before(platform, (c: Context<AppEnv>) =>
    c.json(protectedResourceMetadata(baseUrlOf(c)), 200, { ...CORS, ...NO_STORE }),
  );
  app.get(PROTECTED_RESOURCE_PATH, metadata);
  app.get(`${PROTECTED_RESOURCE_PATH}${MCP_PATH}`, metadata);

  // The manifest is the same for a base URL: built once (a few ms of schema generation) and kept,
  // for the few base URLs a server answers under.
  const manifests = new Lru<string>(8);
  app.get(
    `${MCP_PATH}/manifest.json`,
    before(platform, (c) => {
      const base = baseUrlOf(c);
      let text = manifests.get(base, 0);
      if (text === undefined) {
        text = JSON.stringify(manifest(base, { version: options.version }));
        manifests.set(base, text, 0);
      }
      return c.body(text, 200, { ...CORS, ...NO_STORE, 'content-type': 'application/json' });
    }),
  );

  app.options(
    MCP_PATH,
    before(platform, (c) => {
      checkOrigin(c);
      return c.body(null, 204, {
        ...CORS,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers':
          'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id',
        'access-control-max-age': '86400',
      });
    }),
  );

  app.on(
    ['GET', 'POST', 'DELETE'],
    MCP_PATH,
    before(platform, async (c) => {
      checkOrigin(c);
      // GET (a session's notification stream) and DELETE (its end) hold no slot: a stream lasts.
      if (c.req.method !== 'POST') return handle(c);
      // Fair between addresses, from the token's lookup on: at most MCP_FAIRNESS.perKey messages of
      // this address run at once, a freed slot goes to the addresses in turn, and an address's
      // messages hold a slot at most a share of the time, so a flood from one address waits behind
      // its own queue, never in front of another client's message.
      const deps = c.get('deps');
      deps.mcpGate ??= new FairGate(MCP_FAIRNESS);
      const admitted = deps.mcpGate.acquire(addressGroup(c.get('clientIp'), deps.config.rateLimit.ipv6Prefix));
      if (admitted === null) {
        throw new AppError('RateLimited', 'Too many /mcp messages from this address are waiting; retry in a second', {
          'retry-after': '1',
        });
      }
      const release = await admitted;
      try {
        return await handle(c);
      } finally {
        release();
      }
    }),
  );

  /** One `/mcp` request: a session's GET stream or DELETE, or one message answered by a per-request MCP server. */
  async function handle(c: Context<AppEnv>): Promise<Response> {
    const bearer = await bearerCaller(c);
    if (bearer instanceof Response) return bearer;
    const { caller, clientId, tokenLive } = bearer;
    const deps = c.get('deps');
    const sessions = mcpSessionsOf(deps);
    const sessionId = c.req.header('mcp-session-id');
    const held = sessionId === undefined ? null : sessions.get(sessionId, caller.user.id, clientId);
    if (sessionId !== undefined && held === null) {
      // MCP: a request naming an ended (or unknown) session is answered 404; the client starts anew.
      return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404, CORS);
    }
    if (held !== null) held.tokenLive = tokenLive;
    if (c.req.method === 'GET' || c.req.method === 'DELETE') {
      if (held === null) {
        return c.json(
          errorBody('MethodNotAllowed', 'GET and DELETE need an Mcp-Session-Id (from initialize); requests are POST'),
          405,
          { ...CORS, allow: 'POST' },
        );
      }
      if (c.req.method === 'DELETE') {
        sessions.end(held.id);
        return c.body(null, 204, CORS);
      }
      // A client that resumes (`Last-Event-ID`) is sent the notifications it missed first.
      const stream = sessions.openStream(held, c.req.header('last-event-id'));
      return new Response(stream.body, {
        status: 200,
        headers: { ...SSE_HEADERS, ...CORS, 'mcp-session-id': held.id },
      });
    }
    // One message per request: a batch would run many tool calls for one request's budget, and
    // the current MCP revision dropped batches. A body that is not JSON is the transport's to refuse.
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    if (Array.isArray(body)) {
      return jsonRpcError(
        c,
        -32600,
        'Invalid Request: batches are not supported; send one JSON-RPC message per request',
      );
    }
    const method = isRecord(body) ? body.method : undefined;
    if (method === 'resources/subscribe' && held === null) {
      const id = isRecord(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
      const message = 'resources/subscribe needs a session: send the Mcp-Session-Id that initialize answered';
      return c.json(
        { jsonrpc: '2.0', error: { code: -32602, message, data: { code: 'InvalidRequest', message } }, id },
        200,
        CORS,
      );
    }
    // `tools/list` carries every tool's schemas: weighed by its size, as the manifest is. A tool
    // call (or a resource read, a prompt) pays the weight of the REST route doing the same work,
    // in the backend, before it runs.
    if (method === 'tools/list') await platform.charge(c, weightOf('MCP', 'tools/list'));
    const charge = (route: string) => {
      const space = route.indexOf(' ');
      return platform.charge(c, weightOf(route.slice(0, space), route.slice(space + 1)));
    };
    // initialize opens a session: what must outlive this request (subscriptions, the logging
    // level, the GET stream) is kept under the id answered in Mcp-Session-Id.
    const opened =
      method === 'initialize' && held === null ? sessions.create(caller.user.id, clientId, tokenLive) : null;
    const session = (held ?? opened)?.session;
    const server = createMcpServer(mcpBackend(deps, caller, useCases, charge), {
      version: options.version,
      onError: (err) => options.logError?.(err, c),
      ...(session === undefined ? {} : { session }),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const response = await transport.handleRequest(c.req.raw, {
        parsedBody: body,
        authInfo: {
          token: 'redacted',
          clientId,
          scopes: [MCP_SCOPE],
          resource: new URL(mcpResource(baseUrlOf(c))),
        },
      });
      for (const [k, v] of Object.entries(CORS)) response.headers.set(k, v);
      // The budget headers the rate limit wrote on the context (outside a Node server) go on the
      // transport's own response, as on any route.
      for (const [k, v] of c.res.headers) if (k.startsWith('x-ratelimit-')) response.headers.set(k, v);
      if (opened !== null) {
        if (response.ok) response.headers.set('mcp-session-id', opened.id);
        else sessions.end(opened.id);
      }
      return response;
    } catch (err) {
      if (opened !== null) sessions.end(opened.id);
      throw err;
    } finally {
      // JSON responses are complete when returned; the per-request server is done.
      await server.close();
    }
  }
}
