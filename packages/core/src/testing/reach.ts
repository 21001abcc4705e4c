/**
 * Reach of property tests: a property over generated series proves little if its draws never
 * leave the warm-up, so each core property marks the draws that reached what it tests and fails
 * when too few did. Runs take their seed from `FC_SEED` (and a counterexample path from
 * `FC_PATH`) when set, so that a failure's printed command replays it.
 */
import { relative } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';

/** The share of draws that must reach what a property tests unless it says otherwise. */
export const DEFAULT_REACH = 0.8;

/** Options of {@link Reach.assert}. */
export interface ReachOptions {
  /** Number of draws; default 100. */
  numRuns?: number;
  /** The share of draws that must call `hit`; default {@link DEFAULT_REACH}. */
  atLeast?: number;
  /**
   * Further counters marked by the same property, each with its own share (for example
   * analyze's plan beside its signal), checked on the same draws.
   */
  also?: readonly [Reach, number][];
}

/** What a draw reached, for a property that must show it tested more than warm-up output. */
export interface Reach {
  /** Marks the current draw as having reached what the property tests (once per draw). */
  hit(): void;
  /** Marks the current draw as reached when `reached` holds; returns `reached`. */
  hitIf(reached: boolean): boolean;
  /**
   * Runs the property like `fc.assert`, then fails unless at least `atLeast` of its draws called
   * `hit`. Both failures name the command that replays the run (seed and counterexample path).
   */
  assert<Ts extends [unknown, ...unknown[]]>(property: fc.IPropertyWithHooks<Ts>, options?: ReachOptions): void;
}

/** `FC_SEED` and `FC_PATH` from the environment replay a reported failure. */
function replay(): { seed?: number; path?: string } {
  const seed = process.env.FC_SEED;
  const path = process.env.FC_PATH;
  return {
    seed: seed === undefined || seed === '' ? undefined : Number(seed),
    path: path === undefined || path === '' ? undefined : path,
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The shell command that reruns the current vitest test with this seed; with a counterexample
 * path, a second line adds it to replay that counterexample alone.
 */
export function reproduction(seed: number, path?: string): string {
  const { testPath, currentTestName } = expect.getState();
  const file = testPath ? relative(process.cwd(), testPath) : '<test file>';
  // vitest matches -t against the suite and test names joined by spaces
  const pattern = currentTestName ? escapeRegExp(currentTestName.split(' > ').join(' ')).replace(/'/g, "'\\''") : '';
  const command = `FC_SEED=${seed} npx vitest run ${file}${pattern ? ` -t '${pattern}'` : ''}`;
  return path === undefined ? command : `${command}\n(replay the shrunk counterexample alone: add FC_PATH=${path})`;
}

interface Counter {
  what: string;
  draws: number;
  hits: number;
  current: boolean;
}

const counters = new WeakMap<Reach, Counter>();

function counterOf(r: Reach): Counter {
  const c = counters.get(r);
  if (!c) throw new Error('not a reach counter');
  return c;
}

/** Fails unless `c` reached at least `atLeast` of its draws. */
function checkShare(c: Counter, atLeast: number, seed: number): void {
  if (c.hits >= atLeast * c.draws) return;
  const pct = c.draws === 0 ? 0 : Math.round((100 * c.hits) / c.draws);
  throw new Error(
    `reach: only ${c.hits} of ${c.draws} draws (${pct}%) reached ${c.what}; at least ${Math.round(100 * atLeast)}% must. ` +
      'Draw inputs that get there (for series: an explicit maxLength, lengths well past the warm-up).\n' +
      `Reproduce with: ${reproduction(seed)}`,
  );
}

/**
 * A reach counter for one property. Generated series that never leave an indicator's warm-up
 * test nothing but NaN, so each core property marks the draws that reached real output and
 * fails when too few did: the guard against generators that are silently too short.
 */
export function reach(what: string): Reach {
  const c: Counter = { what, draws: 0, hits: 0, current: false };
  const hit = (): void => {
    if (!c.current) {
      c.current = true;
      c.hits++;
    }
  };
  const r: Reach = {
    hit,
    hitIf(reached: boolean): boolean {
      if (reached) hit();
      return reached;
    },
    assert(property, options = {}) {
      const all = [c, ...(options.also ?? []).map(([other]) => counterOf(other))];
      for (const x of all) {
        x.draws = 0;
        x.hits = 0;
      }
      const counted = property.beforeEach((previous) => {
        previous();
        for (const x of all) {
          x.draws++;
          x.current = false;
        }
      });
      const { seed, path } = replay();
      // FC_NO_SHRINK=1 reports the first failing draw as found: shrinking a long series can take minutes
      const endOnFailure = process.env.FC_NO_SHRINK === '1';
      const details = fc.check(counted, { numRuns: options.numRuns ?? 100, seed, path, endOnFailure });
      if (details.failed) {
        const report = fc.defaultReportMessage(details) ?? 'property failed';
        const again = reproduction(details.seed, details.counterexamplePath ?? undefined);
        throw new Error(`${report}\n\nReproduce with: ${again}`, { cause: details.errorInstance });
      }
      // a replayed counterexample path runs one draw: nothing to say about reach
      if (path !== undefined) return;
      checkShare(c, options.atLeast ?? DEFAULT_REACH, details.seed);
      for (const [other, atLeast] of options.also ?? []) checkShare(counterOf(other), atLeast, details.seed);
    },
  };
  counters.set(r, c);
  return r;
}
