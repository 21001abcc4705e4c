import { describe, expect, it } from 'vitest';
import { marketReadiness } from './server.js';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const WINDOW = 600_000;
const source = (name: string, lastAgoMs: number | null, breaker = 'closed') => ({
  source: name,
  assets: 40,
  breaker,
  last_success_at: lastAgoMs === null ? null : NOW - lastAgoMs,
});

describe('marketReadiness (the market check of /readyz)', () => {
  it('is ready when one source answered within the window, its circuit not open', () => {
    const r = marketReadiness([source('binance', 30_000), source('yahoo', null)], WINDOW, NOW);
    expect(r.ok).toBe(true);
    expect(r.detail).toContain('binance: 40 assets, last answer 2026-11-28T11:59:30.000Z, circuit closed');
    expect(r.detail).toContain('yahoo: 40 assets, never answered');
  });

  it('says why it is not: never answered, an answer older than the window, a circuit open', () => {
    expect(marketReadiness([source('binance', null)], WINDOW, NOW)).toEqual({
      ok: false,
      detail: 'binance: 40 assets, never answered',
    });
    const old = marketReadiness([source('binance', WINDOW + 1)], WINDOW, NOW);
    expect(old.ok).toBe(false);
    expect(old.detail).toContain('older than 600 s');
    const open = marketReadiness([source('binance', 1_000, 'open')], WINDOW, NOW);
    expect(open.ok).toBe(false);
    expect(open.detail).toContain('circuit open');
    // at the window's edge it still counts
    expect(marketReadiness([source('binance', WINDOW)], WINDOW, NOW).ok).toBe(true);
    expect(marketReadiness([], WINDOW, NOW)).toEqual({ ok: false, detail: 'no market source configured' });
  });
});
