import { describe, expect, it } from 'vitest';
import { LOCALES, pickLocale } from './locale.js';

describe('pickLocale', () => {
  it('takes the first preferred language the narrative is written in, by its primary subtag', () => {
    expect(pickLocale(['pt-BR', 'en'])).toBe('pt');
    expect(pickLocale(['zh-Hant-TW'])).toBe('zh');
    expect(pickLocale(['it-IT', 'de-CH', 'fr'])).toBe('de');
    expect(pickLocale(['JA'])).toBe('ja');
    expect(pickLocale(['es_MX'])).toBe('es');
  });

  it('falls back to English when none is supported or none is given', () => {
    expect(pickLocale(['it', 'ru'])).toBe('en');
    expect(pickLocale([])).toBe('en');
    expect(pickLocale([''])).toBe('en');
  });

  it('covers the seven languages of the overview', () => {
    expect([...LOCALES].sort()).toEqual(['de', 'en', 'es', 'fr', 'ja', 'pt', 'zh']);
    for (const l of LOCALES) expect(pickLocale([l])).toBe(l);
  });
});
