#!/usr/bin/env node
/**
 * Repeated code in the production sources of `packages/`, counted the way issue 39 asks: pairs of
 * places sharing runs of 10 or more lines (the same, or the same shape with other names), over
 * what ships only. Tests, test support and fixtures, `scripts/` folders and build configuration
 * are left out, and so are the pairs between core's indicator files: their streaming `update` and
 * `replace` bodies repeat each other on purpose (a shared body measured 2.2x slower, see
 * docs/architecture.md).
 *
 * It copies those files (from the working tree, tracked and untracked-but-not-ignored, or from a
 * commit) into a temporary folder and runs the `duplicates` tool over it; it needs that tool on
 * the PATH.
 *
 *   node scripts/duplicates-production.mjs              the count, then the rows
 *   node scripts/duplicates-production.mjs --count     the count only
 *   node scripts/duplicates-production.mjs --rev REV   the files as they are at commit REV
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_LINES = 10;
const SECONDS = 300;

/** A source file that ships: under a package's `src/`, not a test, test support or fixture. */
export function isProduction(path) {
  if (!/^packages\/[^/]+\/src\//.test(path)) return false;
  if (!/\.(ts|tsx|mts|js|mjs|css|html)$/.test(path)) return false;
  if (/\.(test|spec|bench)\.[a-z]+$/.test(path)) return false;
  return !path.split('/').some((part) => part === 'testing' || part === 'test' || /fixtures?/.test(part));
}

/** A row of `duplicates`: `D1 a.ts:10-24 ~ b.ts:40-54 ...`, its two files. */
function filesOf(row) {
  const m = /^D\d+\s+(\S+):\d+-\d+\s+~\s+(\S+):\d+-\d+/.exec(row);
  return m ? [m[1], m[2]] : null;
}

/**
 * A pair between core's indicator files: their streaming classes repeat the `update`/`replace`
 * bodies of one shape on purpose, within a file and from one indicator to the next.
 */
export function isIndicatorPair(row) {
  const files = filesOf(row);
  return files?.every((f) => /^packages\/core\/src\/indicators\//.test(f)) ?? false;
}

function main() {
  const argv = process.argv.slice(2);
  const countOnly = argv.includes('--count');
  const rev = argv.includes('--rev') ? argv[argv.indexOf('--rev') + 1] : null;
  const git = (args, encoding = 'utf8') =>
    execFileSync('git', args, { cwd: ROOT, encoding, maxBuffer: 64 * 1024 * 1024 });
  const listed = (
    rev === null
      ? git(['ls-files', '--cached', '--others', '--exclude-standard', 'packages'])
      : git(['ls-tree', '-r', '--name-only', rev, 'packages'])
  )
    .split('\n')
    .filter((p) => p !== '' && isProduction(p));
  const work = mkdtempSync(join(tmpdir(), 'marketlens-duplicates-'));
  try {
    for (const path of listed) {
      const to = join(work, path);
      mkdirSync(dirname(to), { recursive: true });
      if (rev !== null) writeFileSync(to, git(['show', `${rev}:${path}`], 'buffer'));
      else if (existsSync(join(ROOT, path))) copyFileSync(join(ROOT, path), to);
      // (listed by git but deleted in the working tree: not a source any more)
    }
    let out;
    try {
      out = execFileSync(
        'duplicates',
        ['--repo', work, '--min-lines', String(MIN_LINES), '--most', '200', '--seconds', String(SECONDS)],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
    } catch (err) {
      console.error(`duplicates-production: the \`duplicates\` tool could not run (${err.message})`);
      process.exit(2);
    }
    const lines = out.split('\n');
    const rows = lines.filter((l) => /^D\d+\s/.test(l));
    const kept = rows.filter((r) => !isIndicatorPair(r));
    const more = lines.map((l) => /^\(\+(\d+) more pairs\)/.exec(l.trim())).find((m) => m);
    const cut = more ? Number(more[1]) : 0;
    const notes = lines.filter((l) => /^(left out|incomplete):/.test(l));
    console.log(
      `${kept.length + cut} pairs of ${MIN_LINES}+ repeated lines in ${listed.length} production files` +
        ` (${rows.length - kept.length} pairs between core's indicator classes aside${cut > 0 ? `; ${cut} beyond the 200 rows listed, counted unfiltered` : ''})`,
    );
    if (!countOnly) for (const r of kept) console.log(r);
    for (const n of notes) console.log(n);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
