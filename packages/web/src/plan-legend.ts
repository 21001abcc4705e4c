import type { AnalysisResponse } from '@marketlens/contract';
import { num, price } from './format.js';
import type { Catalog } from './i18n/catalog.js';
import { word } from './i18n/catalogs.js';

/** One line of the plan on the chart and its entry in the chart's legend. */
export interface PlanLine {
  role: 'entry' | 'stop' | 'target';
  price: number;
  /** The legend's text: the line's name, its price and, for the stop and the targets, its R. */
  text: string;
  dashed: boolean;
}

/**
 * The plan's lines in drawing order (entry, stop, targets), each named in the page's language with
 * its price (at the market's `tick`) and R. The chart draws the lines without labels on the price axis and shows these
 * texts in its legend: one entry per line, so no two labels ever share a place.
 */
export function planLines(
  plan: AnalysisResponse['zone'],
  t: Catalog,
  locale: string,
  tick: number | null = null,
): PlanLine[] {
  if (plan.direction === null || plan.entry_price === null || plan.stop_loss === null) return [];
  const direction = word(t.words.directions, plan.direction);
  return [
    {
      role: 'entry',
      price: plan.entry_price,
      text: `${t.chart.entry(direction)} ${price(plan.entry_price, locale, tick)}`,
      dashed: false,
    },
    {
      role: 'stop',
      price: plan.stop_loss,
      text: `${t.chart.stop} ${price(plan.stop_loss, locale, tick)} · −1R`,
      dashed: true,
    },
    ...plan.take_profits.map((tp, i) => ({
      role: 'target' as const,
      price: tp.price,
      text: `${t.chart.target(i + 1)} ${price(tp.price, locale, tick)} · ${num(tp.risk_reward, locale, 1)}R`,
      dashed: true,
    })),
  ];
}
