/**
 * `completion/complete`: values for the arguments users type, for prompt arguments and for the
 * variables of the analysis resource template alike. Asset ids match by id, ticker and name (a
 * prefix, or a word of the name); timeframes by either spelling; exchange ids by id and name.
 */
import { TIMEFRAMES } from '@marketlens/contract';
import type { CompleteRequest, CompleteResult } from '@modelcontextprotocol/sdk/types.js';
import type { Backend } from './backend.js';
import { PROMPTS } from './prompts.js';
import { ANALYSIS_TEMPLATE, spelledTimeframe } from './resources.js';

/** Values answered at most (the MCP limit is 100). */
export const COMPLETION_LIMIT = 20;

/** The arguments completed, by name. */
export type CompletedArgument = 'asset_id' | 'timeframe' | 'exchange_id';

const COMPLETED = new Set<string>(['asset_id', 'timeframe', 'exchange_id']);

/** Which argument a completion request is for, or null when the ref names nothing completed here. */
function argumentOf(ref: CompleteRequest['params']['ref'], name: string): CompletedArgument | null {
  if (!COMPLETED.has(name)) return null;
  if (ref.type === 'ref/resource') {
    return ref.uri === ANALYSIS_TEMPLATE && (name === 'asset_id' || name === 'timeframe') ? name : null;
  }
  const prompt = PROMPTS.find((p) => p.listing.name === ref.name);
  return prompt?.listing.arguments?.some((a) => a.name === name) ? (name as CompletedArgument) : null;
}

/** Rank of a candidate for `typed` (lower first), or null when it does not match. */
function rank(typed: string, id: string, symbol: string, name: string): number | null {
  if (typed === '') return 3;
  const [i, s, n] = [id.toLowerCase(), symbol.toLowerCase(), name.toLowerCase()];
  if (s === typed || i === typed) return 0;
  if (s.startsWith(typed) || i.startsWith(typed)) return 1;
  if (n.startsWith(typed)) return 2;
  if (n.split(/[\s\-_.()]+/).some((w) => w.startsWith(typed))) return 3;
  return null;
}

/** The best matches of `typed`, in rank then list order. */
function best<T>(rows: readonly T[], typed: string, key: (row: T) => [string, string, string]): T[] {
  const ranked: { row: T; r: number; i: number }[] = [];
  rows.forEach((row, i) => {
    const r = rank(typed, ...key(row));
    if (r !== null) ranked.push({ row, r, i });
  });
  return ranked.sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.row);
}

/** The completion of `values` (all of them matched): the first {@link COMPLETION_LIMIT}, and the total. */
function answer(values: readonly string[]): CompleteResult {
  return {
    completion: {
      values: values.slice(0, COMPLETION_LIMIT),
      total: values.length,
      hasMore: values.length > COMPLETION_LIMIT,
    },
  };
}

/**
 * The completion of one argument. An argument or ref this server does not complete answers no
 * values (completion is a typing aid, not a validation: the prompt or the read says what is wrong).
 */
export async function complete(backend: Backend, params: CompleteRequest['params']): Promise<CompleteResult> {
  const arg = argumentOf(params.ref, params.argument.name);
  const typed = params.argument.value.trim().toLowerCase().slice(0, 64);
  switch (arg) {
    case 'timeframe': {
      const spelled = TIMEFRAMES.flatMap((tf) => {
        const person = spelledTimeframe(tf);
        return person.startsWith(typed) || tf.startsWith(typed)
          ? [tf.startsWith(typed) && typed !== '' ? tf : person]
          : [];
      });
      return answer(spelled);
    }
    case 'asset_id': {
      // Every class, as /v2/assets lists them (most traded first): the matches are ranked by id, ticker, name.
      const rows = await backend.run('market.assets', {
        asset_class: 'all',
        sort: 'volume',
        sort_dir: 'desc',
        limit: 500,
      });
      const analysed = rows.filter((r) => !r.is_stablecoin);
      return answer(best(analysed, typed, (r) => [r.id, r.symbol, r.name]).map((r) => r.id));
    }
    case 'exchange_id': {
      const exchanges = await backend.run('market.exchanges', {});
      return answer(best(exchanges, typed, (e) => [e.id, e.id, e.name]).map((e) => e.id));
    }
    default:
      return answer([]);
  }
}
