import { type Fact, formatFactValue, type OverviewLocale } from '@marketlens/core';
import { z } from 'zod';
import { stateKey, stateOf } from '../platform/app-state.js';
import type { AppDeps } from '../platform/deps.js';
import { Lru } from '../platform/lru.js';
import type { OverviewLlmConfig } from './config.js';

/** Where the overview text came from: the facts' own renderer, or an accepted LLM rewrite of it. */
export type OverviewSource = 'facts' | 'llm';

const LANGUAGES: Record<OverviewLocale, string> = {
  en: 'English',
  es: 'Spanish',
  de: 'German',
  fr: 'French',
  pt: 'Portuguese',
  ja: 'Japanese',
  zh: 'Simplified Chinese',
};

/** The same number pattern the core overview tests check the renderer with. */
const NUMBER = /\d+(?:\.\d+)?/g;

/** A rewrite longer than this (or 4x the facts' text) is refused as rambling. */
const MAX_REWRITE_CHARS = 4_000;

/**
 * The numbers a rewrite may contain: every number of every fact's value as written neutrally and
 * as the narrative writes it in `locale` (`82.580,00` in German). Text is NFKC normalized first, so
 * full-width digits (common in ja/zh output) are checked like ASCII ones.
 */
export function allowedNumbers(facts: readonly Fact[], locale?: OverviewLocale): Set<string> {
  const allowed = new Set<string>();
  for (const f of facts) {
    for (const v of Object.values(f.values)) {
      const written = locale === undefined ? [v.text] : [v.text, formatFactValue(v, locale)];
      for (const t of written) for (const m of t.normalize('NFKC').match(NUMBER) ?? []) allowed.add(m);
    }
  }
  return allowed;
}

/** The numbers of `text` that are not among the facts' values as written (empty: acceptable). */
export function inventedNumbers(text: string, facts: readonly Fact[], locale?: OverviewLocale): string[] {
  const allowed = allowedNumbers(facts, locale);
  return (text.normalize('NFKC').match(NUMBER) ?? []).filter((m) => !allowed.has(m));
}

/** A rewrite is accepted only when non-empty, not rambling, and every number in it is a fact's. */
export function acceptRewrite(
  rewrite: string,
  facts: readonly Fact[],
  deterministic: string,
  locale?: OverviewLocale,
): boolean {
  const text = rewrite.trim();
  if (text.length === 0 || text.length > Math.min(MAX_REWRITE_CHARS, Math.max(400, deterministic.length * 4))) {
    return false;
  }
  return inventedNumbers(text, facts, locale).length === 0;
}

const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/** The chat-completions request body for a rewrite of `text` in `locale`. */
export function rewriteRequest(model: string, facts: readonly Fact[], text: string, locale: OverviewLocale) {
  const compact = facts.map((f) => ({
    id: f.id,
    values: Object.fromEntries(Object.entries(f.values).map(([k, v]) => [k, formatFactValue(v, locale)])),
  }));
  return {
    model,
    temperature: 0.2,
    max_tokens: 600,
    messages: [
      {
        role: 'system',
        content: `You rewrite short market overviews so they read naturally. Write in ${LANGUAGES[locale]}. Say only what the facts say. Copy every number exactly as it is written in the facts (same digits, same decimals); write no other number, date, time or figure. Plain text, no markdown, no advice, at most six sentences.`,
      },
      {
        role: 'user',
        content: `Facts (JSON):\n${JSON.stringify(compact)}\n\nOverview to rewrite:\n${text}`,
      },
    ],
  };
}

/** One call to `{baseUrl}/chat/completions`; the reply text, or an error on timeout or failure. */
export async function requestRewrite(
  config: OverviewLlmConfig,
  facts: readonly Fact[],
  text: string,
  locale: OverviewLocale,
): Promise<string> {
  const res = await fetch(`${config.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify(rewriteRequest(config.model, facts, text, locale)),
    signal: AbortSignal.timeout(config.timeoutMs),
  });
  if (!res.ok) throw new Error(`overview rewrite: HTTP ${res.status}`);
  const body = CompletionSchema.parse(await res.json());
  return body.choices[0].message.content ?? '';
}

export interface OverviewText {
  text: string;
  source: OverviewSource;
}

/** Rewrites (accepted or not) kept per analysis key, locale and facts' text, at most this many. */
export const OVERVIEW_REWRITE_CACHE_SIZE = 1_024;

/** The app's rewrites, done and in flight. */
const REWRITES = stateKey('overview rewrites', () => ({
  done: new Lru<OverviewText>(OVERVIEW_REWRITE_CACHE_SIZE),
  pending: new Map<string, Promise<OverviewText>>(),
}));

/**
 * The overview text to serve: the LLM's rewrite when configured and acceptable, else the facts'
 * deterministic text. One call per key (concurrent requests share it); a refused or failed
 * rewrite is remembered too, so a failing endpoint is not called again for the same facts.
 */
export async function overviewText(
  deps: Pick<AppDeps, 'config' | 'state'>,
  key: string,
  facts: readonly Fact[],
  deterministic: string,
  locale: OverviewLocale,
  now: number,
  onError: (err: unknown) => void = () => {},
): Promise<OverviewText> {
  const fallback: OverviewText = { text: deterministic, source: 'facts' };
  const config = deps.config.overviewLlm;
  if (!config) return fallback;
  const cache = stateOf(deps, REWRITES);
  // The facts' text is part of the key: a rewrite is only ever served beside the facts it was checked against.
  const fullKey = `${key}|${locale}|${deterministic}`;
  const hit = cache.done.get(fullKey, now);
  if (hit) return hit;
  const pending = cache.pending.get(fullKey);
  if (pending) return pending;
  const { done, pending: inFlight } = cache;
  const p = requestRewrite(config, facts, deterministic, locale)
    .then((rewrite): OverviewText => {
      const text = rewrite.trim();
      return acceptRewrite(text, facts, deterministic, locale) ? { text, source: 'llm' } : fallback;
    })
    .catch((err: unknown): OverviewText => {
      onError(err);
      return fallback;
    })
    .then((result) => {
      done.set(fullKey, result, now);
      inFlight.delete(fullKey);
      return result;
    });
  inFlight.set(fullKey, p);
  return p;
}
