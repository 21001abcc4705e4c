import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { CATALOG } from './catalog.js';
import { createMcpServer, MCP_PACKAGE_VERSION, toolListing } from './server.js';
import { fakeBackend } from './testing/fake-backend.js';

describe('published tool schemas', () => {
  it('gives every tool an inline object input schema and an output schema (its data, or an error)', () => {
    for (const tool of CATALOG) {
      const listing = toolListing(tool);
      const text = JSON.stringify([listing.inputSchema, listing.outputSchema]);
      expect(text, tool.name).not.toContain('$ref');
      expect(text, tool.name).not.toContain('definitions');
      expect(listing.inputSchema.type, tool.name).toBe('object');
      expect(listing.outputSchema?.type, tool.name).toBe('object');
      const branches = (listing.outputSchema as { anyOf?: { required?: string[] }[] }).anyOf ?? [];
      expect(branches.length, tool.name).toBe(2);
      expect(branches[1]?.required).toEqual(['code', 'message']);
    }
  });

  it('reports the service contract version, and protocol errors without a doubled prefix', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(fakeBackend().backend).connect(serverSide);
    const client = new Client({ name: 'test', version: '0' });
    await client.connect(clientSide);
    expect(client.getServerVersion()?.version).toBe(MCP_PACKAGE_VERSION);
    expect(MCP_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
    await client.close();
  });
});
