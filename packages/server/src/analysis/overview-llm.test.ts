import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyze, type Fact, overviewFacts, renderOverview } from '@marketlens/core';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness } from '../../test/support/harness.js';
import { grantTier } from '../auth/tiers.js';
import { acceptRewrite, inventedNumbers, rewriteRequest } from './overview-llm.js';

const FACTS: Fact[] = [
  { id: 'price', values: { close: { value: 64250.5, text: '64250.50' }, change: { value: -1.2, text: '-1.20%' } } },
  {
    id: 'momentum',
    values: { rsi: { value: 72.04, text: '72.0' }, zone: { value: 'overbought', text: 'overbought' } },
  },
];

describe('the number check', () => {
  it('accepts numbers copied from the facts and refuses any other', () => {
    expect(inventedNumbers('Price 64250.50, down 1.20%; RSI 72.0.', FACTS)).toEqual([]);
    expect(inventedNumbers('Price 64250.5 (RSI 72).', FACTS)).toEqual(['64250.5', '72']);
    expect(inventedNumbers('Target 70000 by 2027.', FACTS)).toEqual(['70000', '2027']);
    // Full-width digits are numbers too.
    expect(inventedNumbers('価格は６４２５０.５０、目標は７００００。', FACTS)).toEqual(['70000']);
  });

  it('refuses empty and rambling rewrites', () => {
    expect(acceptRewrite('  ', FACTS, 'x')).toBe(false);
    expect(acceptRewrite('a'.repeat(5000), FACTS, 'x')).toBe(false);
    expect(acceptRewrite('Momentum is overbought at 72.0.', FACTS, 'RSI 72.0')).toBe(true);
  });

  it('accepts the deterministic text itself for any analysis', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 10, max: 1000, noNaN: true }), { minLength: 120, maxLength: 200 }),
        (closes) => {
          const n = closes.length;
          const cols = {
            time: Float64Array.from(closes, (_, i) => Date.UTC(2025, 0, 1) + i * 86_400_000),
            open: Float64Array.from(closes, (c, i) => (i > 0 ? closes[i - 1] : c)),
            high: Float64Array.from(closes, (c, i) => Math.max(c, i > 0 ? closes[i - 1] : c) * 1.01),
            low: Float64Array.from(closes, (c, i) => Math.min(c, i > 0 ? closes[i - 1] : c) * 0.99),
            close: Float64Array.from(closes),
            volume: new Float64Array(n).fill(1000),
          };
          const facts = overviewFacts(analyze(cols));
          for (const locale of ['en', 'ja'] as const) {
            const text = renderOverview(facts, locale);
            expect(acceptRewrite(text, facts, text)).toBe(true);
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('asks for the requested language and sends the facts and the narrative', () => {
    const body = rewriteRequest('m', FACTS, 'The narrative.', 'de');
    expect(body.model).toBe('m');
    expect(body.messages[0].content).toContain('German');
    expect(body.messages[1].content).toContain('The narrative.');
    expect(body.messages[1].content).toContain('"close":"64250.50"');
  });
});

type Mode = 'good' | 'invented' | 'error' | 'hang' | 'garbage';

describe('GET /v2/analysis/{asset_id}/overview with an OpenAI-compatible endpoint', () => {
  let mode: Mode = 'good';
  // Each test starts with no calls and its own app (so its own rewrite cache): no test depends on
  // which ran before it.
  const calls: { path: string; auth: string | undefined; body: ReturnType<typeof rewriteRequest> }[] = [];
  let endpoint: Server;
  let baseUrl: string;

  beforeAll(async () => {
    endpoint = createServer((req, res) => {
      let raw = '';
      req.on('data', (c: Buffer) => {
        raw += c.toString();
      });
      req.on('end', () => {
        const body = JSON.parse(raw) as ReturnType<typeof rewriteRequest>;
        calls.push({ path: req.url ?? '', auth: req.headers.authorization, body });
        const narrative = body.messages[1].content.split('Overview to rewrite:\n')[1] ?? '';
        const reply = (content: string) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
        if (mode === 'good') reply(`In short: ${narrative}`);
        else if (mode === 'invented') reply(`${narrative} Analysts expect 123456.78 next week.`);
        else if (mode === 'error') res.writeHead(500).end('{"error":"boom"}');
        else if (mode === 'garbage') res.writeHead(200, { 'content-type': 'application/json' }).end('{"nope":1}');
        // 'hang': never answers, so the call ends by the client's timeout whatever that timeout is.
      });
    });
    await new Promise<void>((done) => endpoint.listen(0, '127.0.0.1', done));
    baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1/`;
  });

  afterAll(() => {
    endpoint.closeAllConnections();
    return new Promise<void>((done) => endpoint.close(() => done()));
  });

  beforeEach(() => {
    calls.length = 0;
    mode = 'good';
  });

  /**
   * An app on the endpoint and a pro session. The default timeout is as long as a test may run, so
   * a slow machine cannot turn a good reply into a fallback; only the hanging endpoint times out.
   */
  const app = async (timeoutMs = 60_000) => {
    const h = harness({ overviewLlm: { baseUrl, apiKey: 'sk-test', model: 'test-model', timeoutMs } });
    const p = await h.signup();
    await grantTier(h.storage, p.userId, 'pro', 'admin', 30, h.clock.now);
    const headers = { 'x-session-token': p.token };
    return async (path: string, locale = 'en') => {
      const res = await h.request(path, { headers: { ...headers, 'x-locale': locale } });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { text: string; source: string; locale: string; facts: Fact[] } }).data;
    };
  };

  it('serves an accepted rewrite as source llm, once per analysis and locale', async () => {
    const overview = await app();
    const a = await overview('/v2/analysis/bitcoin/overview', 'de-AT');
    expect(a.source).toBe('llm');
    expect(a.locale).toBe('de');
    expect(a.text.startsWith('In short: ')).toBe(true);
    expect(inventedNumbers(a.text, a.facts, 'de')).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe('/v1/chat/completions');
    expect(calls[0].auth).toBe('Bearer sk-test');
    expect(calls[0].body.model).toBe('test-model');
    expect(calls[0].body.messages[0].content).toContain('German');
    expect(await overview('/v2/analysis/bitcoin/overview', 'de')).toEqual(a);
    expect(calls).toHaveLength(1);
    await overview('/v2/analysis/bitcoin/overview', 'fr');
    expect(calls).toHaveLength(2);
  });

  it('rejects a rewrite with an invented number and serves the facts text', async () => {
    const overview = await app();
    mode = 'invented';
    const o = await overview('/v2/analysis/ethereum/overview');
    expect(calls).toHaveLength(1);
    expect(o.source).toBe('facts');
    expect(o.text).not.toContain('123456.78');
    expect(o.text).toBe(renderOverview(o.facts, 'en'));
  });

  it('falls back to the facts text on a 500, a malformed reply or a timeout', async () => {
    // A short timeout, so the hanging endpoint costs a fraction of a second; the other modes answer at once.
    const overview = await app(100);
    for (const [m, tf] of [
      ['error', 'h1'],
      ['garbage', 'h4'],
      ['hang', 'w1'],
    ] as const) {
      mode = m;
      const o = await overview(`/v2/analysis/solana/overview?timeframe=${tf}`);
      expect([m, o.source]).toEqual([m, 'facts']);
      expect(o.text).toBe(renderOverview(o.facts, 'en'));
    }
  });

  it('serves the facts text when no endpoint is configured', async () => {
    const plain = harness();
    const { token } = await plain.signup();
    const res = await plain.request('/v2/analysis/bitcoin/overview', { headers: { 'x-session-token': token } });
    const data = ((await res.json()) as { data: { source: string; text: string } }).data;
    expect(data.source).toBe('facts');
    expect(data.text.length).toBeGreaterThan(0);
    // (no check on the endpoint's calls here: an app without an endpoint cannot reach it, and a
    // late request of an earlier test's app, on a loaded machine, would make such a check fail)
  });
});
