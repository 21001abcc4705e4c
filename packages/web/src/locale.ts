/** The languages the overview narrative is written in (the server's `x-locale`). */
export const LOCALES = ['en', 'es', 'de', 'fr', 'pt', 'ja', 'zh'] as const;
export type Locale = (typeof LOCALES)[number];

/**
 * The first of the browser's preferred languages the narrative is written in, by its primary
 * subtag (`pt-BR` is `pt`, `zh-Hant-TW` is `zh`); English when none is.
 */
export function pickLocale(preferred: readonly string[]): Locale {
  for (const tag of preferred) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    const found = LOCALES.find((l) => l === primary);
    if (found !== undefined) return found;
  }
  return 'en';
}
