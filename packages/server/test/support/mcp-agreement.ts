import type { OperationId, TierName as Tier } from '@marketlens/contract';
import { type Backend, createMcpServer, type OperationRunner } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { mcpBackend } from '../../src/mcp/backend.js';
import { type AppDeps, DEFAULT_CONFIG, type ServerConfig } from '../../src/platform/deps.js';
import type { Harness } from './harness.js';

/**
 * Support of the REST-vs-MCP agreement tests: a real MCP client connected in memory to the MCP
 * server over a backend, and tool calls that must succeed or must fail.
 */

/** An MCP client connected in memory to an MCP server over `backend`. */
export async function connectedClient(backend: Required<Backend>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(backend).connect(serverSide);
  const client = new Client({ name: 'agreement-test', version: '0' });
  await client.connect(clientSide);
  return client;
}

/** The structured content of a tool call that must succeed. */
export async function toolResult(client: Client, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, `${name}: ${JSON.stringify(r.structuredContent)}`).toBeFalsy();
  return r.structuredContent;
}

/** The error code of a tool call that must fail. */
export async function toolRefusal(client: Client, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(r.isError, name).toBe(true);
  return (r.structuredContent as { code: unknown }).code;
}

/** The inputs each operation was run with, by operation id, in order. */
export type RunLog = Partial<Record<OperationId, unknown[]>>;

/**
 * `backend` with every run recorded in `calls` (what a tool handed its operation, after parsing its
 * arguments), so a test checks what reached the use case, not only what came back.
 */
export function recorded(backend: Required<Backend>): { backend: Required<Backend>; calls: RunLog } {
  const calls: RunLog = {};
  const run = ((id: OperationId, input: unknown) => {
    calls[id] = [...(calls[id] ?? []), input];
    return backend.run(id, input as never);
  }) as OperationRunner;
  return { backend: { ...backend, run }, calls };
}

/**
 * A user signed up on `h`, and an MCP client over the server's backend of that user (the real use
 * cases over the harness's in-memory SQLite storage and simulated venue), its runs recorded.
 * `config` and `deps` are the ones the harness was made with.
 */
export async function mcpUser(
  h: Harness,
  options: {
    tier?: Tier;
    config?: Partial<ServerConfig>;
    deps?: Partial<Omit<AppDeps, 'storage' | 'config' | 'now' | 'market'>>;
    /** Changes the backend the client is served over (runs fewer operations, fails one, ...). */
    wrap?: (backend: Required<Backend>) => Required<Backend>;
  } = {},
): Promise<{ client: Client; calls: RunLog; userId: string; token: string; deps: AppDeps }> {
  const { token, userId } = await h.signup();
  const user = await h.storage.users.byId(userId);
  if (user === null) throw new Error('no user');
  const deps: AppDeps = {
    storage: h.storage,
    config: { ...DEFAULT_CONFIG, ...options.config },
    now: () => h.clock.now,
    market: h.market,
    ...options.deps,
  };
  const tier = options.tier ?? 'free';
  const real = mcpBackend(deps, { kind: 'session', user, tier, tier_expires_at: null, api_key_id: null });
  const { backend, calls } = recorded(options.wrap ? options.wrap(real) : real);
  return { client: await connectedClient(backend), calls, userId, token, deps };
}
