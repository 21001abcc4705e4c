import { ToolErrorContentSchema } from '@marketlens/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { CATALOG } from '../catalog.js';
import { createMcpServer } from '../server.js';
import { backendOfGroups, fakeBackend } from '../testing/fake-backend.js';

const open: Client[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(backend: Backend): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(backend).connect(serverSide);
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const tool = CATALOG.find((t) => t.name === name);
  const checked = (r.isError ? ToolErrorContentSchema : tool?.output)?.safeParse(r.structuredContent);
  expect(checked?.success, `${name}: ${checked?.error?.message}`).toBe(true);
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, unknown> };
}

describe('webhook tools', () => {
  it('register answers the secret once; list never shows it; delete removes it', async () => {
    const client = await connect(fakeBackend().backend);
    const reg = await call(client, 'register_alert_webhook', { url: 'https://hooks.example.com/ml', name: 'bot' });
    expect(reg.isError).toBeFalsy();
    expect(reg.data.secret).toMatch(/^whsec_/);
    expect(reg.data.signature_header).toBe('marketlens-signature');
    expect(reg.text).toContain(String(reg.data.secret));

    const list = await call(client, 'list_alert_webhooks');
    const hooks = list.data.webhooks as Record<string, unknown>[];
    expect(hooks.map((w) => w.url)).toEqual(['https://hooks.example.com/ml']);
    expect(JSON.stringify(list.data)).not.toContain('whsec_');

    const del = await call(client, 'delete_alert_webhook', { webhook_id: reg.data.id });
    expect(del.data).toEqual({ id: reg.data.id, deleted: true });
    const again = await call(client, 'delete_alert_webhook', { webhook_id: reg.data.id });
    expect(again.isError).toBe(true);
    expect(again.data.code).toBe('WebhookNotFound');
  });

  it('answers the backend code for a refused URL and InvalidRequest for bad arguments', async () => {
    const client = await connect(fakeBackend().backend);
    expect((await call(client, 'register_alert_webhook', { url: 'https://169.254.169.254/latest' })).data.code).toBe(
      'InvalidWebhook',
    );
    expect((await call(client, 'register_alert_webhook', {})).data.code).toBe('InvalidRequest');
    expect((await call(client, 'delete_alert_webhook', { webhook_id: 'nope' })).data.code).toBe('InvalidRequest');
  });

  it('are not listed for a backend that does not run the webhook operations', async () => {
    const { groups } = fakeBackend();
    const client = await connect(backendOfGroups({ ...groups, webhooks: undefined }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain('register_alert_webhook');
    expect(names).toContain('get_alerts');
  });
});
