/**
 * The remote MCP endpoint: `{base}/mcp`, Streamable HTTP, OAuth 2.1 bearer tokens only.
 *
 * Stateless: each POST gets its own MCP server and transport (JSON responses, no `Mcp-Session-Id`),
 * bound to the token's user, so every request is authenticated afresh (token, audience, and the
 * login session the token was issued under) and any instance behind a load balancer can answer.
 * GET (a server-to-client SSE stream) and DELETE (ending a session) have nothing to do here: 405.
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

export const MCP_PATH = '/mcp';
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const NO_STORE = { 'cache-control': 'no-store' };

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
async function bearerCaller(c: Context<AppEnv>): Promise<{ caller: McpCaller; clientId: string } | Response> {
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
  try {
    const a = await authenticated(deps.storage, user, deps.now());
    return {
      clientId,
      caller: { kind: 'session', user, tier: a.tier, tier_expires_at: a.tier_expires_at, api_key_id: null },
    };
  } catch {
    // The subscription could not be read: served as free, as on REST.
    return { clientId, caller: { kind: 'session', user, tier: null, tier_expires_at: null, api_key_id: null } };
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
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type, accept, mcp-protocol-version, last-event-id',
        'access-control-max-age': '86400',
      });
    }),
  );

  app.on(
    ['GET', 'POST', 'DELETE'],
    MCP_PATH,
    before(platform, async (c) => {
      checkOrigin(c);
      if (c.req.method !== 'POST') {
        const bearer = await bearerCaller(c);
        if (bearer instanceof Response) return bearer;
        return c.json(errorBody('MethodNotAllowed', 'This endpoint is stateless: POST only'), 405, {
          ...CORS,
          allow: 'POST',
        });
      }
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
        const bearer = await bearerCaller(c);
        if (bearer instanceof Response) return bearer;
        return await answer(c, bearer.caller, bearer.clientId);
      } finally {
        release();
      }
    }),
  );

  /** One admitted `/mcp` message: parsed, charged, answered by a per-request MCP server. */
  async function answer(c: Context<AppEnv>, caller: McpCaller, clientId: string): Promise<Response> {
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
    // `tools/list` carries every tool's schemas: weighed by its size, as the manifest is. A tool
    // call pays the weight of the REST route doing the same work, in the backend, before it runs.
    if (isRecord(body) && body.method === 'tools/list') await platform.charge(c, weightOf('MCP', 'tools/list'));
    const charge = (route: string) => {
      const space = route.indexOf(' ');
      return platform.charge(c, weightOf(route.slice(0, space), route.slice(space + 1)));
    };
    const server = createMcpServer(mcpBackend(c.get('deps'), caller, useCases, charge), {
      version: options.version,
      onError: (err) => options.logError?.(err, c),
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
      return response;
    } finally {
      // JSON responses are complete when returned; the per-request server is done.
      await server.close();
    }
  }
}
