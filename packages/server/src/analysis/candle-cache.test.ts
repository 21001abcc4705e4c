import { candleOpenTime, TIMEFRAME_MS, TIMEFRAMES, type Timeframe } from '@marketlens/exchanges';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { reach } from '../../../core/src/testing/reach.js';
import { type Harness, harness } from '../../test/support/harness.js';
import { grantTier } from '../auth/tiers.js';
import { cacheLimitMs, SIGNAL_CACHE_MS, signalMaxAge } from './analysis.js';

describe('signalMaxAge', () => {
  it('never reaches past the close of the candle forming, nor past the hour or the candle', () => {
    const ended = reach('a limit set by the close of the forming candle');
    ended.assert(
      fc.property(
        fc.constantFrom(...TIMEFRAMES),
        fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
        fc.integer({ min: 0, max: 3_600 }),
        (tf, now, ageDrawn) => {
          const limit = cacheLimitMs(tf);
          expect(limit).toBe(Math.min(SIGNAL_CACHE_MS, TIMEFRAME_MS[tf]));
          const age = ageDrawn % Math.floor(limit / 1000);
          const maxAge = signalMaxAge(tf, now, age);
          const close = candleOpenTime(tf, now) + TIMEFRAME_MS[tf];
          expect(Number.isInteger(maxAge) && maxAge >= 0).toBe(true);
          expect(now + maxAge * 1000).toBeLessThanOrEqual(close);
          expect(age + maxAge).toBeLessThanOrEqual(limit / 1000);
          // the bound is tight: a second more would pass the close or the limit
          expect(now + (maxAge + 1) * 1000 > close || age + maxAge + 1 > limit / 1000).toBe(true);
          ended.hitIf(now + (maxAge + 1) * 1000 > close);
        },
      ),
      { numRuns: 500, atLeast: 0.2 },
    );
  });

  it('gives an m5 signal at most 5 minutes, ending at the close', () => {
    const now = Date.UTC(2026, 0, 15, 12, 3, 20);
    expect(signalMaxAge('m5', now, 0)).toBe(100);
    expect(signalMaxAge('h1', now, 0)).toBe(3_400);
    expect(signalMaxAge('d1', now, 600)).toBe(3_000);
  });
});

describe('a cache entry never outlives its candle', () => {
  let h: Harness;
  let headers: Record<string, string>;
  beforeAll(async () => {
    h = harness();
    const p = await h.signup();
    await grantTier(h.storage, p.userId, 'pro', 'admin', 3_650, h.clock.now);
    headers = { 'x-session-token': p.token };
  });

  interface SignalBody {
    data: { as_of: string; cached_at: string; age: number; max_age: number; signal: unknown };
  }
  interface AnalysisBody {
    data: { as_of: string; signal: unknown };
  }

  it('serves the signal and the analysis of the newest closed candle, computed within the candle now forming', async () => {
    let requests = 0;
    let turned = 0;
    const step = fc.record({
      tf: fc.constantFrom<Timeframe>('m5', 'm15', 'h1'),
      // up to a little over one hour: inside the candle, across one close, across several
      dt: fc.oneof(fc.integer({ min: 0, max: 240_000 }), fc.integer({ min: 240_000, max: 3_900_000 })),
    });
    const last = new Map<Timeframe, number>();
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), async (steps) => {
        for (const { tf, dt } of steps) {
          h.clock.now += dt;
          const now = h.clock.now;
          const forming = candleOpenTime(tf, now);
          const sig = (await (
            await h.request(`/v2/analysis/solana/signal?timeframe=${tf}`, { headers })
          ).json()) as SignalBody;
          const cachedAt = Date.parse(sig.data.cached_at);
          // computed within the candle now forming, of the candle that closed before it
          expect(cachedAt).toBeGreaterThanOrEqual(forming);
          expect(cachedAt).toBeLessThanOrEqual(now);
          expect(Date.parse(sig.data.as_of)).toBe(forming - TIMEFRAME_MS[tf]);
          expect(sig.data.age * 1000).toBeLessThan(TIMEFRAME_MS[tf]);
          expect(now + sig.data.max_age * 1000).toBeLessThanOrEqual(forming + TIMEFRAME_MS[tf]);
          const an = (await (
            await h.request(`/v2/analysis/solana?timeframe=${tf}`, { headers })
          ).json()) as AnalysisBody;
          expect(Date.parse(an.data.as_of)).toBe(forming - TIMEFRAME_MS[tf]);
          expect(an.data.signal).toEqual(sig.data.signal);
          const before = last.get(tf);
          requests++;
          if (before !== undefined && before < forming) turned++;
          last.set(tf, forming);
        }
      }),
      { numRuns: 25, seed: process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED) },
    );
    // reach: most requests came after a close since the previous one of their timeframe
    expect(turned).toBeGreaterThan(requests / 3);
  });
});
