#!/usr/bin/env node
/**
 * The server's folder graph in numbers, read from the code the way scripts/architecture.mjs reads
 * it (relative imports of the non-test `.ts` files, type-only imports included): its rooms (the
 * first-level folders of packages/server/src and the files beside them), the arrows between rooms,
 * the loops (strongly connected components), the floors, the imports that run back up, and the
 * lines of packages/server/src, and, for the server, its declared floors (SERVER_FLOORS) with the
 * imports they refuse. docs/architecture.md quotes its output before and after a change.
 *
 *   node scripts/server-graph.mjs            the numbers
 *   node scripts/server-graph.mjs --edges    also every arrow, with its count of file imports
 *   node scripts/server-graph.mjs --package packages/core   another package
 */
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  cyclesOf,
  FOLDER_LOOP_DEBT,
  floorProblems,
  floorsOf,
  folderGraph,
  readGraph,
  SERVER_FLOOR_DEBT,
  SERVER_FLOORS,
} from './architecture.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const at = process.argv.indexOf('--package');
const pkgDir = resolve(ROOT, at > 0 ? process.argv[at + 1] : 'packages/server');
const srcDir = join(pkgDir, 'src');

const { fileEdges } = readGraph();
const graph = folderGraph(fileEdges, srcDir);
const files = [...fileEdges.keys()].filter((f) => f.startsWith(`${srcDir}/`));
const lines = files.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length - 1, 0);
const arrows = [...graph.weights.values()];
const loops = cyclesOf(graph.edges);
const { floor, backUp } = floorsOf(graph);

console.log(`${relative(ROOT, srcDir)}: ${files.length} files, ${lines} lines (tests excluded)`);
console.log(`rooms ${graph.edges.size}; arrows ${arrows.length} (${arrows.reduce((a, b) => a + b, 0)} file imports)`);
console.log(`loops ${loops.length}${loops.map((l) => `\n  ${l.length} rooms: ${l.join(' ')}`).join('')}`);
console.log(`floors ${Math.max(...floor.values())}`);
const byFloor = new Map();
for (const [room, f] of floor) byFloor.set(f, [...(byFloor.get(f) ?? []), room].sort());
for (const f of [...byFloor.keys()].sort((a, b) => b - a))
  console.log(`  floor ${String(f).padStart(2)}  ${byFloor.get(f).join(' ')}`);
console.log(
  `arrows back up ${backUp.length} (${backUp.reduce((n, [, , w]) => n + w, 0)} file imports)${backUp
    .sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]))
    .map(([a, b, w]) => `\n  ${a} -> ${b}  ${w}`)
    .join('')}`,
);
// The layering `pnpm lint` checks: the arrows FOLDER_LOOP_DEBT lists set aside.
const pkgName = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).name;
const debt = (FOLDER_LOOP_DEBT[pkgName] ?? []).filter((arrow) => {
  const [a, b] = arrow.split(' -> ');
  return graph.edges.get(a)?.has(b);
});
const checked = folderGraph(fileEdges, srcDir);
for (const arrow of debt) {
  const [a, b] = arrow.split(' -> ');
  checked.edges.get(a).delete(b);
}
const checkedLoops = cyclesOf(checked.edges);
console.log(
  `checked layering (FOLDER_LOOP_DEBT aside): ${debt.length} debt arrows, loops ${checkedLoops.length}${
    checkedLoops.length === 0 ? `, floors ${Math.max(...floorsOf(checked).floor.values())}` : ''
  }`,
);
if (pkgName === '@marketlens/server') {
  console.log(`declared floors ${SERVER_FLOORS.length} (SERVER_FLOORS, bottom up)`);
  for (const f of SERVER_FLOORS)
    console.log(`  ${f.name} (${f.kind})  ${f.rooms.join(' ')}${f.filesBeside ? ' and the files beside' : ''}`);
  const refused = floorProblems(fileEdges, SERVER_FLOORS, srcDir, []);
  console.log(
    `imports the floors refuse ${refused.length} (${SERVER_FLOOR_DEBT.length} listed as debt)${refused.map((p) => `\n  ${p}`).join('')}`,
  );
}
if (process.argv.includes('--edges')) {
  console.log('arrows');
  for (const [k, w] of [...graph.weights].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${k}  ${w}`);
}
