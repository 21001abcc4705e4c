import { type Backend, createMcpServer } from '@marketlens/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';

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
