import type { Locale } from '../locale.js';
import type { Catalog } from './catalog.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { pt } from './pt.js';
import { zh } from './zh.js';

/** The page's text in each of the seven languages the product speaks (the narrative's). */
export const CATALOGS: Record<Locale, Catalog> = { en, es, de, fr, pt, ja, zh };

/**
 * The word for a value the API spells (`extreme_greed`, `stop_wrong_side`) from one of the
 * catalog's word tables; a value the table does not know yet (a newer server) is shown as `unknown`
 * when given, else as the API spells it, underscores as spaces.
 */
export function word(
  table: Readonly<Record<string, string>>,
  value: string | null | undefined,
  unknown?: string,
): string {
  if (value === null || value === undefined) return '–';
  if (Object.hasOwn(table, value)) return table[value] as string;
  return unknown ?? value.replace(/_/g, ' ');
}
