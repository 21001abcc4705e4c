import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from './server.js';
import { fakeBackend } from './testing/fake-backend.js';

/**
 * Regression: `tools/call` whose `arguments` is not an object (a string, an array, null) was answered
 * JSON-RPC -32603 (internal error) with zod's issue list as the message, because the SDK parsed the
 * request with the handler's schema before its own `tools/call` check. It is invalid params (-32602).
 * Found by the server's MCP fuzz (packages/server/src/mcp/mcp-fuzz.test.ts).
 */
let client: Client;
let calls: ReturnType<typeof fakeBackend>['calls'];

beforeAll(async () => {
  const fake = fakeBackend();
  calls = fake.calls;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(fake.backend).connect(serverSide);
  client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
});

describe('tools/call with arguments that are not an object', () => {
  it.each([
    ['a string', 'bitcoin'],
    ['an array', [{ asset_id: 'bitcoin' }]],
    ['null', null],
    ['a number', 42],
  ])('%s is a JSON-RPC invalid-params error, and the backend is not called', async (_, args) => {
    const before = JSON.stringify(calls);
    const error = await client
      .callTool({ name: 'get_asset_analysis', arguments: args as unknown as Record<string, unknown> })
      .then(
        () => null,
        (err: unknown) => err,
      );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('Invalid tools/call request');
    expect(JSON.stringify(calls)).toBe(before);
  });

  it('an object, and no arguments at all, still reach the tool', async () => {
    const ok = (await client.callTool({ name: 'get_positions', arguments: {} })) as CallToolResult;
    expect(ok.isError).toBeFalsy();
    const bare = (await client.callTool({ name: 'get_account_info' })) as CallToolResult;
    expect(bare.isError).toBeFalsy();
    const bad = (await client.callTool({ name: 'get_asset_analysis', arguments: { asset_id: 7 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { code: string }).code).toBe('InvalidRequest');
  });
});
