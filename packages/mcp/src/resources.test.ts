import { TIMEFRAMES } from '@marketlens/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Followable, Followed, LiveBackend } from './backend.js';
import { isCodedError, ToolError } from './errors.js';
import { analysisUri, parseResourceUri, spelledTimeframe } from './resources.js';
import { McpSession } from './session.js';

const assetId = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 40 })
  .filter((s) => s.trim() === s && s.length > 0);

describe('resource URIs', () => {
  it('an analysis URI reads back as its asset and timeframe, in either timeframe spelling', () => {
    let odd = 0;
    fc.assert(
      fc.property(assetId, fc.constantFrom(...TIMEFRAMES), fc.boolean(), (id, tf, wire) => {
        if (/[^a-z0-9-]/.test(id)) odd++;
        const uri = analysisUri(id, tf);
        const spelled = wire ? uri.replace(/\/[^/]+$/, `/${tf}`) : uri;
        expect(parseResourceUri(spelled)).toEqual({ kind: 'analysis', followed: { asset_id: id, timeframe: tf } });
      }),
    );
    // The generator reaches ids that need percent-encoding (slashes, spaces, non-ASCII).
    expect(odd).toBeGreaterThan(10);
    expect(analysisUri('bitcoin', 'd1')).toBe('marketlens://analysis/bitcoin/1d');
    expect(spelledTimeframe('m15')).toBe('15m');
  });

  it('any other string is refused with a coded error, never another exception', () => {
    let notFound = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.string({ maxLength: 30 }).map((s) => `marketlens://analysis/${s}`),
          fc
            .tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 6 }))
            .map(([a, t]) => `marketlens://analysis/${a}/${t}`),
        ),
        (uri) => {
          try {
            parseResourceUri(uri);
          } catch (err) {
            expect(isCodedError(err)).toBe(true);
            expect(['NotFound', 'InvalidRequest']).toContain((err as ToolError).code);
            if ((err as ToolError).code === 'NotFound') notFound++;
          }
        },
      ),
    );
    expect(notFound).toBeGreaterThan(0);
    expect(() => parseResourceUri('marketlens://analysis/bitcoin/2d')).toThrow(/Unknown timeframe/);
    expect(parseResourceUri('marketlens://positions')).toEqual({ kind: 'positions' });
  });
});

/** A live backend over a counter: the cap is 2 distinct candles; tickers resolve to ids. */
function fakeLive() {
  const watching = new Set<object>();
  const closes: (() => void)[] = [];
  const live: LiveBackend = {
    async checkFollow(list: readonly Followed[]): Promise<Followable> {
      const followed = list.map((f) => ({ ...f, asset_id: f.asset_id === 'BTC' ? 'bitcoin' : f.asset_id }));
      if (followed.some((f) => f.asset_id === 'nosuch')) throw new ToolError('UnknownAsset', 'Unknown asset');
      if (new Set(followed.map((f) => `${f.asset_id}:${f.timeframe}`)).size > 2) {
        throw new ToolError('StreamSubscriptionLimitExceeded', 'too many');
      }
      return {
        followed,
        watch: (_f, onClose) => {
          const token = {};
          watching.add(token);
          closes.push(onClose);
          return () => watching.delete(token);
        },
      };
    },
  };
  return { live, watching, closes };
}

describe('McpSession', () => {
  it('checks the cap, notifies the URI subscribed, pauses and resumes, and holds nothing once closed', async () => {
    const { live, watching, closes } = fakeLive();
    const sent: unknown[] = [];
    const session = new McpSession((n) => sent.push(n));
    const btc = 'marketlens://analysis/BTC/1d';
    await session.subscribe(live, btc, { asset_id: 'BTC', timeframe: 'd1' });
    await session.subscribe(live, btc, { asset_id: 'BTC', timeframe: 'd1' }); // again: nothing changes
    await session.subscribe(live, 'marketlens://analysis/bitcoin/1d', { asset_id: 'bitcoin', timeframe: 'd1' });
    await session.subscribe(live, 'e', { asset_id: 'ethereum', timeframe: 'd1' });
    await expect(session.subscribe(live, 's', { asset_id: 'solana', timeframe: 'd1' })).rejects.toMatchObject({
      code: 'StreamSubscriptionLimitExceeded',
    });
    await expect(session.subscribe(live, 'n', { asset_id: 'nosuch', timeframe: 'd1' })).rejects.toMatchObject({
      code: 'UnknownAsset',
    });
    expect(session.subscriptions).toEqual([btc, 'marketlens://analysis/bitcoin/1d', 'e']);
    expect(watching.size).toBe(3);
    closes[0]?.();
    expect(sent).toEqual([{ method: 'notifications/resources/updated', params: { uri: btc } }]);
    session.level = 'info';
    closes[0]?.();
    expect(sent).toHaveLength(3); // the update and, at info, its log message
    session.pause();
    expect(watching.size).toBe(0);
    session.unsubscribe('e');
    session.resume();
    expect(watching.size).toBe(2);
    session.close();
    expect(watching.size).toBe(0);
    expect(session.subscriptions).toEqual([]);
  });
});
