/**
 * The fair admission of `/mcp` messages, counted, not timed (docs/testing.md: no clocks in
 * assertions): a flood from one address never has more than `perKey` messages in flight, a message
 * of another address is admitted ahead of the flood's queue, a full queue is refused, and through
 * the app a flood of tool calls from one address holds one slot while another address's call is
 * admitted before the flood's queue drains. What it buys in latency is measured, not asserted:
 * scripts/bench-mcp-fairness.mjs and BENCHMARKS.md.
 */
import { describe, expect, it } from 'vitest';
import { type Harness, harness } from '../../test/support/harness.js';
import { FairGate, type Release } from './fair-gate.js';

/**
 * A gate on a clock the test moves (`clock.t`), whose freed slots are handed on and timers fire
 * only when the test says (`flush`), with the admissions in order.
 */
function gate(slots: number, perKey = 1, queuePerKey = 100, share?: number) {
  const deferred: Array<() => void> = [];
  const timers: Array<{ at: number; fn: () => void }> = [];
  const clock = { t: 0 };
  const admissions: string[] = [];
  const g = new FairGate(
    { slots, perKey, queuePerKey, ...(share === undefined ? {} : { share }) },
    {
      defer: (fn) => deferred.push(fn),
      now: () => clock.t,
      after: (fn, ms) => timers.push({ at: clock.t + ms, fn }),
    },
    (key) => admissions.push(key),
  );
  const flush = async () => {
    for (;;) {
      const due = timers.findIndex((x) => x.at <= clock.t);
      if (deferred.length === 0 && due < 0) break;
      if (deferred.length > 0) deferred.shift()?.();
      else timers.splice(due, 1)[0]?.fn();
    }
    // let the admitted promises' continuations run
    await new Promise((r) => setImmediate(r));
  };
  return { g, admissions, flush, clock, timers };
}

/** Acquires for `key` and records the release once admitted. */
function take(g: FairGate, key: string, held: Release[]) {
  const p = g.acquire(key);
  if (p === null) throw new Error(`refused ${key}`);
  return p.then((release) => {
    held.push(release);
    return release;
  });
}

describe('FairGate', () => {
  it('runs at most perKey messages of one key, however many it sends', async () => {
    const { g, admissions, flush } = gate(4, 1);
    const held: Release[] = [];
    for (let i = 0; i < 20; i++) void take(g, 'flood', held);
    await flush();
    let most = 0;
    // Release one at a time: each release admits exactly the next one of the flood, never two.
    for (let round = 0; round < 20; round++) {
      most = Math.max(most, g.runningOf('flood'));
      expect(g.runningOf('flood')).toBe(1);
      expect(g.waitingOf('flood')).toBe(19 - round);
      held.shift()?.();
      await flush();
    }
    expect(most).toBe(1);
    expect(admissions).toEqual(Array(20).fill('flood'));
    expect(g.running).toBe(0);
  });

  it("admits another key at once while a slot is free, whatever the flood's queue", async () => {
    const { g, admissions, flush } = gate(2, 1);
    const held: Release[] = [];
    for (let i = 0; i < 10; i++) void take(g, 'flood', held);
    await flush();
    expect([g.runningOf('flood'), g.waitingOf('flood')]).toEqual([1, 9]);
    const other = g.acquire('other');
    expect(other).not.toBeNull();
    await flush();
    expect(g.runningOf('other')).toBe(1);
    expect(admissions).toEqual(['flood', 'other']);
  });

  it("with every slot taken, gives the next free slot to a newly waiting key before the flood's queue", async () => {
    const { g, admissions, flush } = gate(1, 1);
    const held: Release[] = [];
    for (let i = 0; i < 5; i++) void take(g, 'flood', held);
    await flush();
    expect(admissions).toEqual(['flood']);
    void take(g, 'other', held);
    void take(g, 'third', held);
    await flush();
    expect(g.waitingOf('other')).toBe(1);
    // The flood ends its message: the slot goes round the other keys before the flood's second.
    for (let i = 0; i < 4; i++) {
      held.shift()?.();
      await flush();
    }
    expect(admissions).toEqual(['flood', 'other', 'third', 'flood', 'flood']);
  });

  it('takes turns between two busy keys', async () => {
    const { g, admissions, flush } = gate(1, 1);
    const held: Release[] = [];
    for (let i = 0; i < 3; i++) void take(g, 'a', held);
    for (let i = 0; i < 3; i++) void take(g, 'b', held);
    await flush();
    for (let i = 0; i < 5; i++) {
      held.shift()?.();
      await flush();
    }
    expect(admissions).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
  });

  it('refuses past queuePerKey waiting messages of one key, not of another', async () => {
    const { g, flush } = gate(1, 1, 2);
    const held: Release[] = [];
    void take(g, 'flood', held);
    void take(g, 'flood', held);
    void take(g, 'flood', held);
    await flush();
    expect([g.runningOf('flood'), g.waitingOf('flood')]).toEqual([1, 2]);
    expect(g.acquire('flood')).toBeNull();
    expect(g.acquire('other')).not.toBeNull();
  });

  it("bounds a key's share of the time: in debt after a message, it waits until it earned the time back; other keys not", async () => {
    const { g, admissions, flush, clock } = gate(4, 1, 100, 1 / 3);
    const held: Release[] = [];
    for (let i = 0; i < 3; i++) void take(g, 'flood', held);
    await flush();
    clock.t = 10;
    held.shift()?.(); // held its slot from 0 to 10, no burst saved: 10 ms in debt, earned back at 40
    await flush();
    expect([g.runningOf('flood'), g.waitingOf('flood')]).toEqual([0, 2]);
    // Another key is admitted at once while the flood waits.
    void take(g, 'other', held);
    await flush();
    expect(admissions).toEqual(['flood', 'other']);
    clock.t = 39;
    await flush();
    expect(g.runningOf('flood')).toBe(0);
    clock.t = 40;
    await flush();
    expect(admissions).toEqual(['flood', 'other', 'flood']);
    clock.t = 45;
    held[1]?.(); // the flood's second message: 40..45, back at 60
    await flush();
    clock.t = 59;
    await flush();
    expect(admissions.filter((k) => k === 'flood')).toHaveLength(2);
    clock.t = 60;
    await flush();
    // Three messages of 10, 5 and (so far) 0 ms in 60 ms: a third of the time, no more.
    expect(admissions.filter((k) => k === 'flood')).toHaveLength(3);
  });

  it('lets a key that stays under its share run without waiting, from its saved burst', async () => {
    const { g, admissions, flush, clock } = gate(1, 1, 100, 1 / 4);
    const burst = new FairGate(
      { slots: 1, perKey: 1, queuePerKey: 100, share: 1 / 4, burstMs: 20 },
      { defer: (fn) => fn(), now: () => clock.t, after: () => {} },
    );
    // No burst: a 4 ms message every 20 ms is a fifth of the time, under a quarter, yet the very
    // first one puts the key 4 ms in debt, earned back at a quarter speed by 20 (it had nothing saved).
    const held: Release[] = [];
    void take(g, 'k', held);
    await flush();
    clock.t = 4;
    held.shift()?.();
    void take(g, 'k', held);
    await flush();
    expect(admissions).toEqual(['k']);
    clock.t = 19;
    await flush();
    expect(admissions).toEqual(['k']);
    clock.t = 20;
    await flush();
    expect(admissions).toEqual(['k', 'k']);
    // With 20 ms of burst, the same client never waits: each message is admitted at once.
    for (let i = 0; i < 10; i++) {
      clock.t = 100 + i * 20;
      const p = burst.acquire('k');
      expect(p, `message ${i}`).not.toBeNull();
      expect(burst.runningOf('k'), `message ${i}`).toBe(1);
      clock.t += 4;
      (await p)?.();
    }
  });

  it('a second release of the same message frees nothing more', async () => {
    const { g, flush } = gate(1, 2);
    const held: Release[] = [];
    await take(g, 'k', held);
    void take(g, 'k', held);
    void take(g, 'k', held);
    await flush();
    const first = held[0];
    first?.();
    first?.();
    await flush();
    expect(g.running).toBe(1);
    expect(g.waitingOf('k')).toBe(1);
  });
});

const ORIGIN = 'http://mcp-fair.test';
const REDIRECT = 'http://127.0.0.1:7/cb';

/** The OAuth code flow done headlessly through the app (as mcp-charge.test.ts does). */
async function accessToken(h: Harness, session: string, ip: string): Promise<string> {
  const reg = await h.request(
    `${ORIGIN}/oauth/register`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    },
    `${ip}1`,
  );
  const { client_id } = (await reg.json()) as { client_id: string };
  const approved = await h.request(
    `${ORIGIN}/oauth/authorize`,
    {
      method: 'POST',
      headers: { 'x-session-token': session },
      body: new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        resource: `${ORIGIN}/mcp`,
        action: 'approve',
      }),
      redirect: 'manual',
    },
    `${ip}2`,
  );
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await h.request(
    `${ORIGIN}/oauth/token`,
    {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id,
        redirect_uri: REDIRECT,
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      }),
    },
    `${ip}3`,
  );
  const token = ((await res.json()) as { access_token?: string }).access_token;
  if (!token) throw new Error('no access token');
  return token;
}

function toolCall(h: Harness, token: string, ip: string, id: number, asset: string) {
  return h.request(
    `${ORIGIN}/mcp`,
    {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'get_asset_signal', arguments: { asset_id: asset } },
      }),
    },
    ip,
  );
}

describe('/mcp through the gate', () => {
  it("holds one address's flood to one message in flight, admits another address ahead of the flood's queue, refuses past the queue", async () => {
    const admissions: string[] = [];
    let mostInFlight = 0;
    const mcpGate: FairGate = new FairGate({ slots: 2, perKey: 1, queuePerKey: 6 }, {}, (key) => {
      admissions.push(key);
      mostInFlight = Math.max(mostInFlight, mcpGate.runningOf(key));
    });
    const h = harness({ rateLimit: { limit: 100_000, windowMs: 60_000 }, publicUrl: ORIGIN }, undefined, { mcpGate });
    const { token: session } = await h.signup();
    const flood = await accessToken(h, session, '198.51.100.');
    const other = await accessToken(h, session, '192.0.2.');
    const FLOOD = '198.51.100.9';
    // The flood's one slot is held here, so its messages can only queue while the test looks.
    const blocker = await mcpGate.acquire(FLOOD);
    if (blocker === null || blocker === undefined) throw new Error('the gate refused the first message');
    const assets = ['bitcoin', 'ethereum', 'solana', 'ripple', 'cardano', 'dogecoin'];
    const flooded = assets.map((asset, i) => toolCall(h, flood, FLOOD, i + 1, asset));
    while (mcpGate.waitingOf(FLOOD) < assets.length) await new Promise((r) => setImmediate(r));
    // One more is refused: the address's queue is full.
    const refused = await toolCall(h, flood, FLOOD, 99, 'bitcoin');
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: string }).code).toBe('RateLimited');
    // Another address's message is answered while all six of the flood's still wait.
    const answered = await toolCall(h, other, '192.0.2.7', 100, 'bitcoin');
    expect(answered.status).toBe(200);
    expect(mcpGate.waitingOf(FLOOD)).toBe(6);
    expect(mcpGate.runningOf(FLOOD)).toBe(1);
    blocker();
    const statuses = await Promise.all(flooded.map(async (p) => (await p).status));
    expect(statuses).toEqual(Array(6).fill(200));
    expect(admissions).toEqual([FLOOD, '192.0.2.7', ...Array(6).fill(FLOOD)]);
    expect(mostInFlight).toBe(1);
    expect(mcpGate.running).toBe(0);
  });
});
