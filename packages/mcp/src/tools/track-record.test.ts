import { OPERATIONS, ServiceTrackRecordSchema, ToolErrorContentSchema } from '@marketlens/contract';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { Backend } from '../backend.js';
import { CATALOG } from '../catalog.js';
import { createRestBackend } from '../rest-backend.js';
import { createMcpServer } from '../server.js';
import { backendOf, fakeBackend } from '../testing/fake-backend.js';

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

async function call(client: Client, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name: 'get_track_record', arguments: args })) as CallToolResult;
  const checked = (r.isError ? ToolErrorContentSchema : ServiceTrackRecordSchema).safeParse(r.structuredContent);
  expect(checked.success, checked.error?.message).toBe(true);
  const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
  return { ...r, text, data: r.structuredContent as Record<string, unknown> };
}

describe('get_track_record', () => {
  it('is a read-only market tool whose output schema is the REST route’s', async () => {
    const tool = CATALOG.find((t) => t.name === 'get_track_record');
    expect(tool?.operation).toBe('analysis.trackRecord');
    expect(tool?.output).toBe(ServiceTrackRecordSchema);
    expect(tool?.annotations.readOnlyHint).toBe(true);
    // Listed for a backend without a session's operations: every signed-in user may read it.
    const { operations } = fakeBackend();
    const names = (
      await (await connect(backendOf(operations, (id) => OPERATIONS[id].caller !== 'session'))).listTools()
    ).tools.map((t) => t.name);
    expect(names).toContain('get_track_record');
  });

  it('answers the structured record and renders its figures', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const r = await call(client);
    expect(r.isError).toBeFalsy();
    expect(calls['analysis.trackRecord']).toEqual([{}]);
    expect(r.data).toMatchObject({ timeframe: null, asset_class: null, total: { plans: 3, hit_rate: 0.5 } });
    expect(r.text).toContain('Track record of the published plans, after a 0.22% round-trip cost');
    expect(r.text).toContain(
      'All: 3 plans (pending 1, tp_hit 1, stopped_out 1); resolved 2, hit rate 50%, mean +0.5R (total +1R); published 2026-01-10 to 2026-01-14',
    );
    expect(r.text).toContain('0.8-1: hit rate 100% of 1 resolved (mean confidence 90%)');
    expect(r.text).toContain('- d1 coins (cost 0.22%): 3 plans');
    // The live audit, then the backtest beside it, labelled as one.
    expect(r.text).toContain(
      'Live audit: 2 resolved, hit rate 50% [10%, 90%] against a break-even of 35%; expected +1.36R, realized +0.5R [-8.97R, +9.97R] per call (90% intervals); max drawdown 1R; 2026-01-10 to 2026-01-13',
    );
    expect(r.text).toContain(
      'Backtest (simulated, not live trading; as of 2026-01-15T12:00:00.000Z): 3 calls in 800 analyses (0.38%); 2 resolved, hit rate 50% [10%, 90%] against a break-even of 39%; expected +0.04R [+0.01R, +0.07R], realized +0.08R',
    );
    expect(r.text).toContain('- backtest bitcoin d1 (cost 0.22%): 3 calls in 800 analyses; 2 resolved');
    expect(r.text.indexOf('Live audit')).toBeLessThan(r.text.indexOf('Backtest'));
    expect(r.data).toMatchObject({ live: { kind: 'live' }, backtest: { kind: 'backtest', status: 'ready' } });
  });

  it('says a pending backtest is pending, and an empty audit has nothing to score', async () => {
    const { operations } = fakeBackend();
    const read = operations['analysis.trackRecord'];
    if (read === undefined) throw new Error('the fake reads the track record');
    const pending = backendOf({
      ...operations,
      'analysis.trackRecord': async (r) => {
        const data = await read({ ...r, asset_class: 'fx' });
        return {
          ...data,
          backtest: {
            ...data.backtest,
            status: 'pending' as const,
            as_of: null,
            label: 'Backtest, not live trading: not run yet.',
          },
        };
      },
    });
    const r = await call(await connect(pending));
    expect(r.text).toContain('Live audit: no call entered and closed');
    expect(r.text).toContain('Backtest (pending): Backtest, not live trading: not run yet.');
  });

  it('passes the filters on in the REST spelling, and refuses invalid ones', async () => {
    const { backend, calls } = fakeBackend();
    const client = await connect(backend);
    const r = await call(client, { timeframe: '1h', asset_class: 'fx' });
    expect(calls['analysis.trackRecord']).toEqual([{ timeframe: 'h1', asset_class: 'fx' }]);
    expect(r.text).toContain('(h1 fx), after a 0.012% round-trip cost');
    expect(r.text).toContain('All: 0 plans; resolved 0, hit rate unavailable, mean unavailable (total 0R)');
    expect(r.text).not.toContain('published 2026');
    expect(r.text).not.toContain('Calibration');
    const bad = await call(client, { asset_class: 'crypto' });
    expect(bad.isError).toBe(true);
    expect(bad.data.code).toBe('InvalidRequest');
    expect(calls['analysis.trackRecord']).toHaveLength(1);
  });
});

describe('the REST backend', () => {
  it('reads GET /v2/track-record with the filters it is given', async () => {
    const urls: string[] = [];
    const fetch = (async (input: string | URL | Request) => {
      urls.push(String(input));
      const data = await fakeBackend().backend.run('analysis.trackRecord', {});
      return new Response(JSON.stringify({ code: 0, success: true, data, message: null }), { status: 200 });
    }) as typeof globalThis.fetch;
    const b = createRestBackend({ baseUrl: 'http://h:1', sessionToken: 'tok', fetch });
    expect((await b.run('analysis.trackRecord', {})).total.plans).toBe(3);
    await b.run('analysis.trackRecord', { timeframe: 'h4', asset_class: 'stocks' });
    expect(urls).toEqual(['http://h:1/v2/track-record', 'http://h:1/v2/track-record?timeframe=h4&asset_class=stocks']);
  });
});
