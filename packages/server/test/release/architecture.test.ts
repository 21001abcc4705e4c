/**
 * scripts/architecture.mjs (run by `pnpm lint`) refuses a loop between folders as well as between
 * files: on a made-up package, a loop between two folders fails the check, the same folders without
 * the import that closes it pass, an arrow listed as debt is set aside, and a debt entry whose
 * import is gone fails until it is struck.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../scripts/architecture.mjs');

interface Architecture {
  folderLoops(
    fileEdges: Map<string, Set<string>>,
    debt: Record<string, string[]>,
    pkgs: { dir: string; name: string }[],
  ): string[];
  floorsOf(graph: { edges: Map<string, Set<string>>; weights: Map<string, number> }): {
    floor: Map<string, number>;
    backUp: [string, string, number][];
  };
  folderGraph(
    fileEdges: Map<string, Set<string>>,
    srcDir: string,
  ): { edges: Map<string, Set<string>>; weights: Map<string, number> };
}

const arch = (await import(SCRIPT)) as Architecture;
const PKG = { dir: '/w/packages/p', name: '@x/p' };
const src = (path: string) => `/w/packages/p/src/${path}`;

/** File edges of the made-up package: each pair is `from imports to`. */
function edges(pairs: [string, string][]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [from, to] of pairs) {
    out.set(src(from), (out.get(src(from)) ?? new Set()).add(src(to)));
    if (!out.has(src(to))) out.set(src(to), new Set());
  }
  return out;
}

// No loop between files: market/a.ts -> analysis/b.ts -> market/c.ts; but market/ <-> analysis/.
const LOOP: [string, string][] = [
  ['market/a.ts', 'analysis/b.ts'],
  ['analysis/b.ts', 'market/c.ts'],
  ['app.ts', 'analysis/b.ts'],
];

describe('scripts/architecture.mjs folder loops', () => {
  it('refuses a loop between folders that is no loop between files', () => {
    const problems = arch.folderLoops(edges(LOOP), {}, [PKG]);
    expect(problems).toEqual([
      'folder loop in @x/p: analysis/ <-> market/ (market/ -> analysis/, analysis/ -> market/)',
    ]);
  });

  it('passes the same folders once the import that closes the loop is gone', () => {
    expect(arch.folderLoops(edges(LOOP.filter(([from]) => from !== 'market/a.ts')), {}, [PKG])).toEqual([]);
  });

  it('sets aside an arrow listed as debt, and refuses a debt entry whose import is gone', () => {
    expect(arch.folderLoops(edges(LOOP), { '@x/p': ['market/ -> analysis/'] }, [PKG])).toEqual([]);
    expect(arch.folderLoops(edges(LOOP), { '@x/p': ['market/ -> analysis/', 'app.ts -> market/'] }, [PKG])).toEqual([
      '@x/p: app.ts -> market/ is listed in FOLDER_LOOP_DEBT but no longer imported (strike it)',
    ]);
  });

  it('stacks folders by floor and names the imports that run back up', () => {
    const { floor, backUp } = arch.floorsOf(arch.folderGraph(edges(LOOP), src('').slice(0, -1)));
    expect(backUp.length).toBe(1);
    expect(floor.get('app.ts')).toBeGreaterThan(Math.max(floor.get('market/') ?? 0, floor.get('analysis/') ?? 0));
  });
});
