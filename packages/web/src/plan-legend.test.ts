import type { AnalysisResponse } from '@marketlens/contract';
import { describe, expect, it } from 'vitest';
import { CATALOGS } from './i18n/catalogs.js';
import { en } from './i18n/en.js';
import { planLines } from './plan-legend.js';

type Plan = AnalysisResponse['zone'];

function plan(direction: 'long' | 'short' | null, targets: [number, number][]): Plan {
  return {
    direction,
    bias: null,
    reason: direction === null ? 'no_direction' : null,
    entry_price: direction === null ? null : 80.177,
    stop_loss: direction === null ? null : 83.115,
    take_profits: targets.map(([price, r], i) => ({ price, risk_reward: r, size_pct: i === 0 ? 70 : 30 })),
  } as unknown as Plan;
}

describe('planLines: the legend of the plan drawn on the chart', () => {
  it('names the entry, the stop and each target once, with its price and R', () => {
    const lines = planLines(
      plan('short', [
        [67.38, 4.4],
        [58.998, 7.2],
      ]),
      en,
      'en',
    );
    expect(lines.map((l) => [l.role, l.price, l.text, l.dashed])).toEqual([
      ['entry', 80.177, 'Entry (short) 80.177', false],
      ['stop', 83.115, 'Stop 83.115 · −1R', true],
      ['target', 67.38, 'Target 1 67.38 · 4.4R', true],
      ['target', 58.998, 'Target 2 58.998 · 7.2R', true],
    ]);
  });

  it("says the side and the numbers in the page's language", () => {
    const es = planLines(plan('short', [[67.38, 4.4]]), CATALOGS.es, 'es');
    expect(es.map((l) => l.text)).toEqual([
      'Entrada (en corto) 80,177',
      'Stop 83,115 · −1R',
      'Objetivo 1 67,38 · 4,4R',
    ]);
    const pt = planLines(plan('long', []), CATALOGS.pt, 'pt');
    expect(pt[0].text).toBe('Entrada (comprado) 80,177');
  });

  it('has no line without a plan', () => {
    expect(planLines(plan(null, []), en, 'en')).toEqual([]);
  });
});
