/**
 * The MCP server over a `Backend`: lists the catalog's tools the backend can serve and runs them.
 * It uses the SDK's low-level `Server` (not `McpServer.registerTool`) for one reason: `McpServer`
 * answers invalid arguments with an uncoded text error, and a tool error here always carries the
 * REST code (`InvalidRequest` for bad input, as REST answers 400), so the input is parsed by the tool.
 */

import { SERVICE_VERSION, ToolErrorContentSchema } from '@marketlens/contract';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  type Tool,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Backend } from './backend.js';
import { CATALOG } from './catalog.js';
import { complete } from './completions.js';
import { protocolErrorOf, ToolError, toolErrorResult } from './errors.js';
import { getPrompt, promptsOf } from './prompts.js';
import { listResources, parseResourceUri, readResource, resourceTemplatesOf } from './resources.js';
import { McpSession } from './session.js';
import type { ToolDefinition } from './tool.js';

/** Name the server reports to clients. */
export const MCP_SERVER_NAME = 'marketlens';
/**
 * Version reported to clients: the service contract's, the same over stdio and HTTP and in the
 * OpenAPI document (the tools are that contract).
 */
export const MCP_PACKAGE_VERSION = SERVICE_VERSION;

const INSTRUCTIONS =
  'marketlens is a read-only technical-analysis and market-data service: analyses with zones and trade plans, signals, Fear & Greed, screeners, and your own exchange positions, balances, orders and trades. It cannot place orders or move funds. Tool errors carry the REST error code in structuredContent.code (e.g. 1004: the timeframe needs Pro).';

export interface McpServerOptions {
  /** Version reported to clients (default: the service contract's). */
  version?: string;
  /** Called with errors that carry no REST code (the client sees code 1 only). */
  onError?: (err: unknown, tool: string) => void;
  /**
   * The session this server serves (subscriptions, logging level), when it outlives the server: the
   * HTTP endpoint makes a server per request. Absent, the server makes its own, bound to its
   * connection and ended with it (stdio).
   */
  session?: McpSession;
}

/** The tools of the catalog the backend can serve (a tool whose operation it cannot run is left out). */
export function toolsOf(backend: Backend): readonly ToolDefinition[] {
  return CATALOG.filter((t) => backend.runs(t.operation));
}

const listings = new WeakMap<ToolDefinition, Tool>();

/**
 * `schema` as one self-contained JSON Schema object: zod names the contract's components
 * (`.meta({ id })`) and refers to them, but MCP clients expect an inline object schema (a top-level
 * `$ref` is refused by several), so every reference is replaced by what it names.
 */
export function inlineJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  const defs = (json.definitions ?? {}) as Record<string, unknown>;
  const resolve = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => resolve(n, seen));
    if (node === null || typeof node !== 'object') return node;
    const obj = node as Record<string, unknown>;
    const ref = obj.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
      const name = ref.slice('#/definitions/'.length);
      // The contract's schemas are trees; a cycle would be a bug there, refused rather than looped on.
      if (seen.includes(name)) throw new Error(`${name}: recursive schema cannot be inlined`);
      const { $ref: _ref, definitions: _defs, $schema: _schema, ...rest } = obj;
      return { ...(resolve(defs[name], [...seen, name]) as object), ...(resolve(rest, seen) as object) };
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) if (k !== 'definitions' && k !== '$schema') out[k] = resolve(v, seen);
    return out;
  };
  return { $schema: json.$schema, ...(resolve(json, []) as Record<string, unknown>), type: 'object' };
}

/**
 * What a call answers, as published: the tool's data, or (with `isError: true`) the REST error code
 * and message. Both are structured content, so the schema names both (a client validates either).
 */
function outputSchemaOf(tool: ToolDefinition): Tool['outputSchema'] {
  const { $schema, ...data } = inlineJsonSchema(tool.output, 'output');
  const { $schema: _s, ...error } = inlineJsonSchema(ToolErrorContentSchema, 'output');
  return { $schema, type: 'object', anyOf: [data, error] } as Tool['outputSchema'];
}

/** A tool as `tools/list` describes it: its input and output schemas as inline JSON Schema objects. */
export function toolListing(tool: ToolDefinition): Tool {
  let listing = listings.get(tool);
  if (listing === undefined) {
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: inlineJsonSchema(tool.input, 'input') as Tool['inputSchema'],
      outputSchema: outputSchemaOf(tool),
      annotations: { title: tool.title, ...tool.annotations },
    };
    listings.set(tool, listing);
  }
  return listing;
}

/** Why input was refused, in the words REST uses for a 400 (`path: message; ...`). */
function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'arguments'}: ${i.message}`)
    .join('; ');
}

/** Runs one tool call: parse, run, render; every failure is a tool error with its REST code. */
export async function callTool(
  backend: Backend,
  tool: ToolDefinition,
  args: unknown,
  onError?: (err: unknown, tool: string) => void,
): Promise<CallToolResult> {
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return toolErrorResult(new ToolError('InvalidRequest', `Invalid arguments: ${issuesText(parsed.error)}`));
  }
  try {
    const out = await tool.run(backend.run, parsed.data);
    return { content: [{ type: 'text', text: out.text }], structuredContent: out.data };
  } catch (err) {
    const result = toolErrorResult(err);
    if (result.structuredContent?.code === 1) onError?.(err, tool.name);
    return result;
  }
}

/**
 * `tools/call` with its `params` left loose, the schema the handler is registered with. The SDK parses
 * a request with the registered schema before its own `tools/call` check, and a failure of that first
 * parse (`arguments` that is not an object: a string, an array, null) left as JSON-RPC -32603, an
 * internal error carrying zod's issue list. Loose here, the request reaches the SDK's check, which
 * answers -32602 invalid params, as for any other malformed `tools/call`.
 */
const ToolsCallRequest = z.looseObject({ method: z.literal('tools/call'), params: z.unknown() });

/**
 * A JSON-RPC error for the SDK to answer with. Not the SDK's `McpError`: its message already starts
 * with `MCP error -32602: `, and a client that wraps the answer in its own `McpError` adds the prefix
 * again ("MCP error -32602: MCP error -32602: ..."). The SDK sends `code` and `message` as given.
 */
function protocolError(code: ErrorCode, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}

/** The capabilities a server over `backend` advertises. */
export function capabilitiesOf(backend: Backend) {
  return {
    tools: {},
    resources: { subscribe: backend.live !== undefined, listChanged: false },
    prompts: { listChanged: false },
    completions: {},
    logging: {},
  };
}

/**
 * Registers `handler` for `method` with its `params` parsed here: the SDK would answer a request its
 * schema refuses (a `uri` that is not a string, ...) with -32603 and zod's issue list; parsed here it
 * is -32602 invalid params. A failure of the handler is a JSON-RPC error with the REST code in `data`
 * ({@link protocolErrorOf}).
 */
function handle<S extends z.ZodType, R>(
  server: Server,
  schema: S,
  handler: (request: z.output<S>) => Promise<R> | R,
  notFound = false,
): void {
  const method = (schema as unknown as z.ZodObject<{ method: z.ZodLiteral<string> }>).shape.method.value;
  const loose = z.looseObject({ method: z.literal(method), params: z.unknown().optional() });
  server.setRequestHandler(loose, async (raw) => {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      throw protocolErrorOf(new ToolError('InvalidRequest', `Invalid ${method} request: ${issuesText(parsed.error)}`));
    }
    try {
      return (await handler(parsed.data)) as Record<string, unknown>;
    } catch (err) {
      throw protocolErrorOf(err, notFound);
    }
  });
}

/**
 * An MCP server (SDK `Server`) over `backend`: the catalog's tools, the resources (analyses,
 * positions, track record; subscriptions when the backend has `live`), the prompts, completions and
 * logging. Connect it to any transport.
 */
export function createMcpServer(backend: Backend, options: McpServerOptions = {}): Server {
  const tools = toolsOf(backend);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'marketlens', version: options.version ?? MCP_PACKAGE_VERSION },
    { capabilities: capabilitiesOf(backend), instructions: INSTRUCTIONS },
  );
  const session =
    options.session ??
    new McpSession((n) => {
      server.notification(n).catch(() => undefined);
    });
  if (options.session === undefined) server.onclose = () => session.close();
  const onError = (err: unknown, tool: string) => {
    session.log('error', 'marketlens.tools', { tool, code: 1, message: 'Internal error' });
    options.onError?.(err, tool);
  };
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolListing) }));
  server.setRequestHandler(ToolsCallRequest, (raw) => {
    // The SDK has checked `raw` against CallToolRequestSchema already (invalid params otherwise).
    const parsed = CallToolRequestSchema.safeParse(raw);
    if (!parsed.success) throw protocolError(ErrorCode.InvalidParams, 'Invalid tools/call request');
    const request = parsed.data;
    const tool = byName.get(request.params.name);
    // An unknown tool is a protocol error (MCP spec: tools/call with an unknown name).
    if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(backend, tool, request.params.arguments, onError);
  });

  handle(server, ListResourcesRequestSchema, async () => ({ resources: await listResources(backend) }));
  handle(server, ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: resourceTemplatesOf(backend) }));
  handle(server, ReadResourceRequestSchema, (r) => readResource(backend, r.params.uri), true);
  handle(
    server,
    SubscribeRequestSchema,
    async (r) => {
      const ref = parseResourceUri(r.params.uri);
      if (ref.kind !== 'analysis') {
        throw new ToolError(
          'InvalidRequest',
          `${r.params.uri} cannot be followed: only analyses update as candles close`,
        );
      }
      if (backend.live === undefined) throw new ToolError('InvalidRequest', 'This server does not follow candles');
      await session.subscribe(backend.live, r.params.uri, ref.followed);
      return {};
    },
    true,
  );
  handle(server, UnsubscribeRequestSchema, (r) => {
    session.unsubscribe(r.params.uri);
    return {};
  });
  handle(server, ListPromptsRequestSchema, () => ({ prompts: promptsOf(backend).map((p) => p.listing) }));
  handle(server, GetPromptRequestSchema, (r) => getPrompt(backend, r.params.name, r.params.arguments));
  handle(server, CompleteRequestSchema, (r) => complete(backend, r.params));
  handle(server, SetLevelRequestSchema, (r) => {
    session.level = r.params.level;
    return {};
  });
  return server;
}

/**
 * Serves `backend` over stdio (stdin/stdout): the local `marketlens mcp`. Resolves once connected;
 * the process then lives as long as stdin is open. Logs go to stderr, never stdout.
 */
export async function runStdio(backend: Backend, options: McpServerOptions = {}): Promise<Server> {
  const server = createMcpServer(backend, {
    ...options,
    onError: options.onError ?? ((err, tool) => console.error(`[marketlens mcp] ${tool} failed:`, err)),
  });
  await server.connect(new StdioServerTransport());
  return server;
}
