/**
 * The MCP server over a `Backend`: lists the catalog's tools the backend can serve and runs them.
 * It uses the SDK's low-level `Server` (not `McpServer.registerTool`) for one reason: `McpServer`
 * answers invalid arguments with an uncoded text error, and a tool error here always carries the
 * REST code (`InvalidRequest` for bad input, as REST answers 400), so the input is parsed by the tool.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Backend } from './backend.js';
import { CATALOG } from './catalog.js';
import { ToolError, toolErrorResult } from './errors.js';
import type { ToolDefinition } from './tool.js';

/** Name the server reports to clients. */
export const MCP_SERVER_NAME = 'marketlens';
/** Version of this package, reported to clients unless the host passes its own. */
export const MCP_PACKAGE_VERSION = '0.1.0';

const INSTRUCTIONS =
  'marketlens is a read-only technical-analysis and market-data service: analyses with zones and trade plans, signals, Fear & Greed, screeners, and your own exchange positions, balances, orders and trades. It cannot place orders or move funds. Tool errors carry the REST error code in structuredContent.code (e.g. 1004: the timeframe needs Pro).';

export interface McpServerOptions {
  /** Version reported to clients (default: this package's). */
  version?: string;
  /** Called with errors that carry no REST code (the client sees code 1 only). */
  onError?: (err: unknown, tool: string) => void;
}

/** The tools of the catalog the backend can serve (a tool whose backend group is absent is left out). */
export function toolsOf(backend: Backend): readonly ToolDefinition[] {
  return CATALOG.filter((t) => backend[t.needs] !== undefined);
}

const listings = new WeakMap<ToolDefinition, Tool>();

/** A tool as `tools/list` describes it: its input schema as JSON Schema of what a client sends. */
export function toolListing(tool: ToolDefinition): Tool {
  let listing = listings.get(tool);
  if (listing === undefined) {
    const schema = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-7' }) as Tool['inputSchema'];
    listing = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: { ...schema, type: 'object' },
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
    // toolsOf lists a tool only when its group is present, so the group the handler reads is there.
    const out = await tool.run(backend as Required<Backend>, parsed.data);
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

/** An MCP server (SDK `Server`) serving the catalog over `backend`; connect it to any transport. */
export function createMcpServer(backend: Backend, options: McpServerOptions = {}): Server {
  const tools = toolsOf(backend);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(
    { name: MCP_SERVER_NAME, title: 'marketlens', version: options.version ?? MCP_PACKAGE_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map(toolListing) }));
  server.setRequestHandler(ToolsCallRequest, (raw) => {
    // The SDK has checked `raw` against CallToolRequestSchema already (invalid params otherwise).
    const parsed = CallToolRequestSchema.safeParse(raw);
    if (!parsed.success) throw new McpError(ErrorCode.InvalidParams, 'Invalid tools/call request');
    const request = parsed.data;
    const tool = byName.get(request.params.name);
    // An unknown tool is a protocol error (MCP spec: tools/call with an unknown name).
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callTool(backend, tool, request.params.arguments, options.onError);
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
