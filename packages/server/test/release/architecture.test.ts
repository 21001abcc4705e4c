/**
 * scripts/architecture.mjs (run by `pnpm lint`) refuses a loop between folders as well as between
 * files: on a made-up package, a loop between two folders fails the check, the same folders without
 * the import that closes it pass, an arrow listed as debt is set aside, and a debt entry whose
 * import is gone fails until it is struck. It also checks the server's declared floors: an import
 * between two features side by side, or up the floors, fails; the real server passes. Core may
 * import the contract through its zod-free words entry only (`@marketlens/contract/words`).
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
  floorProblems(fileEdges: Map<string, Set<string>>, floors?: Floor[], srcDir?: string, debt?: string[]): string[];
  readGraph(): { fileEdges: Map<string, Set<string>>; pkgEdges: Map<string, Set<string>>; problems: string[] };
  importProblem(pkg: string, spec: string): string | null;
  SERVER_FLOORS: Floor[];
}

interface Floor {
  name: string;
  rooms: string[];
  kind: 'stacked' | 'side by side' | 'wiring';
  filesBeside?: boolean;
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

// Feature-shaped: alerts/ and live/ stand side by side above market/, below the wiring file app.ts.
const FLOORS: Floor[] = [
  { name: 'infrastructure', rooms: ['platform/'], kind: 'stacked' },
  { name: 'shared domain', rooms: ['market/'], kind: 'stacked' },
  { name: 'features', rooms: ['alerts/', 'live/'], kind: 'side by side' },
  { name: 'composition root', rooms: [], kind: 'wiring', filesBeside: true },
];
const SIDE_BY_SIDE: [string, string][] = [
  ['app.ts', 'alerts/scheduler.ts'],
  ['app.ts', 'live/live.ts'],
  ['alerts/scheduler.ts', 'market/market.ts'],
  ['live/live.ts', 'market/market.ts'],
  ['market/market.ts', 'platform/deps.ts'],
];
const SRC = src('').slice(0, -1);

describe('scripts/architecture.mjs floors of the server', () => {
  it('passes features that import only the floors below them, wired by the composition root', () => {
    const graph = edges(SIDE_BY_SIDE);
    // The reach of the case: every declared floor has a room, and the features import the domain.
    expect([...arch.folderGraph(graph, SRC).edges.keys()].sort()).toEqual([
      'alerts/',
      'app.ts',
      'live/',
      'market/',
      'platform/',
    ]);
    expect(arch.floorProblems(graph, FLOORS, SRC, [])).toEqual([]);
  });

  it('refuses an import between two features side by side, though it closes no loop', () => {
    const graph = edges([...SIDE_BY_SIDE, ['alerts/scheduler.ts', 'live/live.ts']]);
    expect(arch.folderLoops(graph, {}, [PKG])).toEqual([]);
    expect(arch.floorProblems(graph, FLOORS, SRC, [])).toEqual([
      expect.stringContaining('src/alerts/ imports live/: two features side by side import neither the other'),
    ]);
    // Listed as debt, it is set aside; listed once gone, it must be struck.
    expect(arch.floorProblems(graph, FLOORS, SRC, ['alerts/ -> live/'])).toEqual([]);
    expect(arch.floorProblems(edges(SIDE_BY_SIDE), FLOORS, SRC, ['alerts/ -> live/'])).toEqual([
      'alerts/ -> live/ is listed in SERVER_FLOOR_DEBT but no longer imported (strike it)',
    ]);
  });

  it('refuses an import up the floors, a stacked floor read backwards, and a folder on no floor', () => {
    const up = edges([...SIDE_BY_SIDE, ['platform/deps.ts', 'alerts/config.ts']]);
    expect(arch.floorProblems(up, FLOORS, SRC, [])).toEqual([
      expect.stringContaining('platform/ imports alerts/: up from the infrastructure to the features'),
    ]);
    const stacked = FLOORS.map((f) => (f.name === 'shared domain' ? { ...f, rooms: ['auth/', 'market/'] } : f));
    const backwards = edges([...SIDE_BY_SIDE, ['auth/caller.ts', 'market/market.ts']]);
    expect(arch.floorProblems(backwards, stacked, SRC, [])).toEqual([
      expect.stringContaining('auth/ imports market/: on the shared domain, market/ stands above auth/'),
    ]);
    const stray = edges([...SIDE_BY_SIDE, ['app.ts', 'extra/thing.ts']]);
    expect(arch.floorProblems(stray, FLOORS, SRC, [])).toEqual([expect.stringContaining('extra/ stands on no floor')]);
  });

  it('the server stands on its declared floors, its features side by side', () => {
    const { fileEdges } = arch.readGraph();
    const features = arch.SERVER_FLOORS.find((f) => f.kind === 'side by side');
    expect(features?.rooms).toEqual(['accounts/', 'alerts/', 'keys/', 'live/', 'pilot/', 'promotions/']);
    expect(arch.floorProblems(fileEdges)).toEqual([]);
  });
});

describe('scripts/architecture.mjs entries of a package', () => {
  it('lets core import the contract through `@marketlens/contract/words` only', () => {
    expect(arch.importProblem('@marketlens/core', '@marketlens/contract/words')).toBeNull();
    expect(arch.importProblem('@marketlens/core', '@marketlens/contract')).toBe(
      'imports @marketlens/contract: @marketlens/core may import @marketlens/contract only through @marketlens/contract/words',
    );
    expect(arch.importProblem('@marketlens/core', '@marketlens/exchanges')).toBe(
      'imports @marketlens/exchanges: @marketlens/core may import @marketlens/contract',
    );
    // Other packages read the contract's main entry as before; the contract imports nothing of ours.
    expect(arch.importProblem('@marketlens/server', '@marketlens/contract')).toBeNull();
    expect(arch.importProblem('@marketlens/contract', '@marketlens/core')).toBe(
      'imports @marketlens/core: @marketlens/contract may import no workspace package',
    );
  });

  it('the real core imports the contract, and only through its words entry', () => {
    const { pkgEdges, problems } = arch.readGraph();
    expect([...(pkgEdges.get('@marketlens/core') ?? [])]).toEqual(['@marketlens/contract']);
    expect(problems).toEqual([]);
  });
});
