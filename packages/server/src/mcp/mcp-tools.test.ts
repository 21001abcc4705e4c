import { randomBytes } from 'node:crypto';
import { ToolErrorContentSchema } from '@marketlens/contract';
import { CATALOG, MCP_PACKAGE_VERSION } from '@marketlens/mcp';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';
import { mcpUser, type RunLog } from '../../test/support/mcp-agreement.js';

/**
 * The MCP tool catalog (@marketlens/mcp) over the server's backend: the real use cases over the
 * harness's in-memory SQLite storage and simulated venue. Moved here from @marketlens/mcp, where they
 * ran over a fake backend of canned data (issue 39.3): what each test checks is kept, against what
 * the service really answers.
 */

const config = { rateLimit: { limit: 1_000_000, windowMs: 60_000 } };

let h: Harness;
let client: Client;
let calls: RunLog;

beforeAll(async () => {
  const credentialsKey = randomBytes(32);
  h = harness(config, undefined, { credentialsKey });
  ({ client, calls } = await mcpUser(h, { config, deps: { credentialsKey } }));
});

afterAll(async () => {
  await client.close();
});

/** Calls a tool, and checks its structured content against the tool's output schema (or the error shape). */
async function call(name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const tool = CATALOG.find((t) => t.name === name);
  const checked = (r.isError ? ToolErrorContentSchema : tool?.output)?.safeParse(r.structuredContent);
  expect(checked?.success, `${name}: ${checked?.error?.message}`).toBe(true);
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, unknown> };
}

describe('the server', () => {
  it('reports the service contract version, and protocol errors without a doubled prefix', async () => {
    expect(client.getServerVersion()?.version).toBe(MCP_PACKAGE_VERSION);
    expect(MCP_PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).message).toBe('MCP error -32602: Unknown tool: no_such_tool');
  });
});

/**
 * Regression: `tools/call` whose `arguments` is not an object (a string, an array, null) was answered
 * JSON-RPC -32603 (internal error) with zod's issue list as the message, because the SDK parsed the
 * request with the handler's schema before its own `tools/call` check. It is invalid params (-32602).
 * Found by the server's MCP fuzz (mcp-fuzz.test.ts).
 */
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
    expect(calls['accounts.positions']).toHaveLength(1);
    expect(calls['auth.accountInfo']).toHaveLength(1);
    const bad = (await client.callTool({ name: 'get_asset_analysis', arguments: { asset_id: 7 } })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { code: string }).code).toBe('InvalidRequest');
  });
});

describe('webhook tools', () => {
  it('register answers the secret once; list never shows it; delete removes it', async () => {
    const reg = await call('register_alert_webhook', { url: 'https://hooks.example.com/ml', name: 'bot' });
    expect(reg.isError).toBeFalsy();
    expect(reg.data.secret).toMatch(/^whsec_/);
    expect(reg.data.signature_header).toBe('marketlens-signature');
    expect(reg.text).toContain(String(reg.data.secret));

    const list = await call('list_alert_webhooks');
    const hooks = list.data.webhooks as Record<string, unknown>[];
    expect(hooks.map((w) => w.url)).toEqual(['https://hooks.example.com/ml']);
    expect(JSON.stringify(list.data)).not.toContain('whsec_');

    const del = await call('delete_alert_webhook', { webhook_id: reg.data.id });
    expect(del.data).toEqual({ id: reg.data.id, deleted: true });
    const again = await call('delete_alert_webhook', { webhook_id: reg.data.id });
    expect(again.isError).toBe(true);
    expect(again.data.code).toBe('WebhookNotFound');
  });

  it('answers the use case code for a refused URL and InvalidRequest for bad arguments', async () => {
    expect((await call('register_alert_webhook', { url: 'https://169.254.169.254/latest' })).data.code).toBe(
      'InvalidWebhook',
    );
    expect((await call('register_alert_webhook', {})).data.code).toBe('InvalidRequest');
    expect((await call('delete_alert_webhook', { webhook_id: 'nope' })).data.code).toBe('InvalidRequest');
  });
});
