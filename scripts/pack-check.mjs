#!/usr/bin/env node
/**
 * The packages as a user receives them. On a built tree (`pnpm build`) this:
 *
 * 1. packs every published package twice, with `npm pack` and with `pnpm pack`, into a temporary
 *    directory and checks each tarball: the metadata fields, a LICENSE, no `workspace:` range left
 *    (npm does not rewrite them: the packages' `prepack`/`postpack` run scripts/workspace-ranges.mjs,
 *    and their package.json must be byte for byte the same after packing), the same dependency
 *    ranges from both packers, and a source map only when the sources it names are inside it
 *    (embedded or shipped);
 * 2. installs the npm-packed tarballs together into a fresh consumer project (npm; each sibling a
 *    package depends on resolves to its tarball through `overrides`, only third-party dependencies
 *    come from the registry or npm's cache), compiles a TypeScript file importing every package's entry from ESM
 *    and from CommonJS with `strict` and without `skipLibCheck`, loads every entry in Node and runs
 *    the installed `marketlens --version`;
 * 3. runs `attw` (@arethetypeswrong/cli) and `publint` on every tarball;
 * 4. rehearses a release on a copy of the repository: `changeset version`, then `pnpm -r pack`,
 *    and checks that the packed versions are the ones changesets chose, that every dependency on a
 *    sibling names that sibling's new version, and that the packages have a publish order (the
 *    dependency graph between them has no cycle and reaches no private package).
 *
 * The work tree is left as it was (packing rewrites a package.json only between its prepack and
 * postpack; this checks it is restored). Needs the npm registry or a warm npm cache (for the
 * consumer's third-party dependencies).
 *
 *   node scripts/pack-check.mjs           run everything, remove the temporary directory
 *   node scripts/pack-check.mjs --keep    leave the temporary directory for inspection
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const KEEP = process.argv.includes('--keep');
const REQUIRED_FIELDS = ['license', 'repository', 'homepage', 'bugs', 'keywords', 'engines'];

/**
 * Errors of other packages' declarations that no change of ours can remove, each with where it is
 * tracked; they are reported, not failed on. Any other diagnostic fails. The MCP SDK's
 * `shared/transport.d.ts` names the DOM-only `HeadersInit`, which `@types/node` does not declare,
 * and every `Server` type (ours return one) reaches it.
 */
const KNOWN_UPSTREAM = [
  {
    pattern:
      /^node_modules\/@modelcontextprotocol\/sdk\/dist\/(esm|cjs)\/shared\/transport\.d\.ts\(\d+,\d+\): error TS2304: Cannot find name 'HeadersInit'\.$/,
    tracked: 'https://github.com/modelcontextprotocol/typescript-sdk/issues/2568',
  },
];

// The pnpm running this script (`pnpm pack-check`), else the one on the PATH.
const EXEC_PATH = process.env.npm_execpath ?? '';
const PNPM = !/pnpm/.test(EXEC_PATH)
  ? ['pnpm']
  : /\.c?js$/.test(EXEC_PATH)
    ? [process.execPath, EXEC_PATH]
    : [EXEC_PATH];
function pnpm(args, options) {
  return run(PNPM[0], [...PNPM.slice(1), ...args], options);
}

const failures = [];
function fail(message) {
  failures.push(message);
  console.error(`  FAIL ${message}`);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

/** Runs a checker and prints its output; a non-zero exit is a failure named `label`. */
function check(label, command, args, options = {}) {
  try {
    const out = run(command, args, options);
    if (out.trim()) console.log(indent(out));
    return true;
  } catch (error) {
    console.log(indent(`${error.stdout ?? ''}${error.stderr ?? ''}`));
    fail(label);
    return false;
  }
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The workspace packages under `dir`/packages, with their manifests. */
function workspacePackages(dir) {
  return readdirSync(join(dir, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, 'packages', entry.name, 'package.json')))
    .map((entry) => {
      const path = join(dir, 'packages', entry.name);
      return { path, manifest: readJson(join(path, 'package.json')) };
    });
}

function dependencyNames(manifest) {
  return Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies, ...manifest.peerDependencies });
}

/** Packages in an order where each comes after the siblings it depends on; throws on a cycle. */
function publishOrder(packages) {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const order = [];
  const state = new Map();
  const visit = (name, trail) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`dependency cycle: ${[...trail, name].join(' -> ')}`);
    state.set(name, 'visiting');
    for (const dep of dependencyNames(byName.get(name).manifest)) {
      if (byName.has(dep)) visit(dep, [...trail, name]);
    }
    state.set(name, 'done');
    order.push(byName.get(name));
  };
  for (const name of byName.keys()) visit(name, []);
  return order;
}

function tarEntries(tarball) {
  return run('tar', ['-tzf', tarball])
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
}

function tarFile(tarball, path) {
  return run('tar', ['-xOzf', tarball, `package/${path}`]);
}

/** Checks one tarball's manifest and contents (`packer` names who packed it). */
function inspectTarball(tarball, sourceManifest, packer) {
  const name = `${sourceManifest.name} (${packer} pack)`;
  const manifest = JSON.parse(tarFile(tarball, 'package.json'));
  const entries = tarEntries(tarball);
  for (const field of REQUIRED_FIELDS) {
    if (manifest[field] === undefined) fail(`${name}: package.json has no "${field}"`);
  }
  if (typeof manifest.repository === 'object' && !manifest.repository.directory) {
    fail(`${name}: "repository" has no "directory"`);
  }
  if (!entries.some((entry) => /^LICENSE(\.md|\.txt)?$/i.test(entry))) fail(`${name}: no LICENSE in the tarball`);
  const text = JSON.stringify(manifest);
  if (text.includes('workspace:')) fail(`${name}: a workspace: range is left in the packed package.json`);
  for (const map of entries.filter((entry) => entry.endsWith('.map'))) {
    const { sources = [], sourcesContent = [] } = JSON.parse(tarFile(tarball, map));
    const missing = sources.filter((source, i) => {
      if (typeof sourcesContent[i] === 'string') return false;
      return !entries.includes(join(dirname(map), source));
    });
    if (missing.length > 0) fail(`${name}: ${map} names ${missing.length} source(s) it neither embeds nor ships`);
  }
  const bytes = Number(run('wc', ['-c', tarball]).trim().split(/\s+/)[0]);
  console.log(
    `  ${sourceManifest.name}@${manifest.version} (${packer}): ${entries.length} files, ${(bytes / 1024).toFixed(0)} kB packed`,
  );
  return manifest;
}

const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'];

/** Fails unless npm's and pnpm's tarballs of one package depend on the same ranges. */
function sameRanges(name, byNpm, byPnpm) {
  for (const field of DEPENDENCY_FIELDS) {
    const a = JSON.stringify(Object.entries(byNpm[field] ?? {}).sort());
    const b = JSON.stringify(Object.entries(byPnpm[field] ?? {}).sort());
    if (a !== b) fail(`${name}: npm and pnpm pack different ${field}: ${a} vs ${b}`);
  }
}

/** `npm pack` one package into `destination` (its prepack/postpack run); returns the tarball path. */
function packNpm(packageDir, destination) {
  const out = run('npm', ['pack', '--pack-destination', destination, '--json'], { cwd: packageDir });
  return join(destination, JSON.parse(out)[0].filename);
}

/** `pnpm pack` one package into `destination`; returns the tarball path. */
function pack(packageDir, destination) {
  const out = pnpm(['pack', '--pack-destination', destination, '--json'], { cwd: packageDir });
  // The prepack/postpack scripts' output shares stdout with the JSON: take the object itself.
  const start = out.search(/^\{$/m);
  const end = out.lastIndexOf('\n}');
  if (start < 0 || end < start) throw new Error(`pnpm pack printed no JSON in ${packageDir}:\n${out}`);
  return JSON.parse(out.slice(start, end + 2)).filename;
}

function installedVersion(name) {
  return readJson(join(ROOT, 'node_modules', name, 'package.json')).version;
}

/** Entries a consumer can import: the root export, or `main`/`types` without `exports`. */
function hasEntry(manifest) {
  return manifest.exports !== undefined || manifest.main !== undefined || manifest.types !== undefined;
}

function hasRequireEntry(manifest) {
  const root = manifest.exports?.['.'] ?? manifest.exports;
  return typeof root === 'object' && root !== null && 'require' in root;
}

function consumerCheck(work, packed) {
  console.log('\nConsumer project (strict, no skipLibCheck)');
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const local = Object.fromEntries(packed.map(({ manifest, tarball }) => [manifest.name, `file:${tarball}`]));
  writeFileSync(
    join(consumer, 'package.json'),
    `${JSON.stringify(
      {
        name: 'marketlens-consumer',
        private: true,
        type: 'module',
        dependencies: local,
        devDependencies: { typescript: installedVersion('typescript'), '@types/node': installedVersion('@types/node') },
        // The siblings a package depends on come from the tarballs, not from the registry.
        overrides: local,
      },
      null,
      2,
    )}\n`,
  );
  const entries = packed.filter(({ manifest }) => hasEntry(manifest));
  const ident = (i) => `pkg${i}`;
  writeFileSync(
    join(consumer, 'esm.mts'),
    [
      ...entries.map(({ manifest }, i) => `import * as ${ident(i)} from '${manifest.name}';`),
      `export const surfaces = [${entries.map((_, i) => ident(i)).join(', ')}];`,
      '',
    ].join('\n'),
  );
  const cjs = entries.filter(({ manifest }) => hasRequireEntry(manifest));
  writeFileSync(
    join(consumer, 'cjs.cts'),
    [
      ...cjs.map(({ manifest }, i) => `import ${ident(i)} = require('${manifest.name}');`),
      `export const surfaces = [${cjs.map((_, i) => ident(i)).join(', ')}];`,
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          skipLibCheck: false,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022'],
          types: ['node'],
          noEmit: true,
        },
        files: ['esm.mts', 'cjs.cts'],
      },
      null,
      2,
    )}\n`,
  );
  // Install scripts are skipped: native modules are not needed to compile or to load the entries.
  if (
    !check(
      'npm install of the tarballs',
      'npm',
      ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: consumer },
    )
  ) {
    return;
  }
  compile(consumer, `${entries.length} entries from ESM, ${cjs.length} from CommonJS`);
  let loads = 0;
  for (const { manifest } of entries) {
    const name = manifest.name;
    loads += hasRequireEntry(manifest) ? 2 : 1;
    check(`${name}: import() fails in Node`, 'node', ['--input-type=module', '-e', `await import('${name}')`], {
      cwd: consumer,
    });
    if (hasRequireEntry(manifest)) {
      check(`${name}: require() fails in Node`, 'node', ['-e', `require('${name}')`], { cwd: consumer });
    }
  }
  console.log(`  node: ${loads} loads of the entries (import and require)`);
  for (const { manifest } of packed) {
    for (const bin of Object.keys(manifest.bin ?? {})) {
      if (!existsSync(join(consumer, 'node_modules/.bin', bin))) fail(`${manifest.name}: bin ${bin} is not installed`);
    }
  }
  const cli = join(consumer, 'node_modules/.bin/marketlens');
  if (existsSync(cli)) {
    try {
      console.log(`  marketlens --version: ${run(cli, ['--version'], { cwd: consumer }).trim()}`);
    } catch (error) {
      console.log(indent(`${error.stdout ?? ''}${error.stderr ?? ''}`));
      fail('marketlens --version fails');
    }
  }
}

/** Runs tsc in the consumer; fails on any diagnostic that is not a known upstream one. */
function compile(consumer, what) {
  let output = '';
  try {
    run(join(consumer, 'node_modules/.bin/tsc'), ['-p', '.'], { cwd: consumer });
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
  // A diagnostic starts at the beginning of a line; its explanation lines are indented.
  const diagnostics = output.split(/\n(?=\S)/).filter((text) => text.trim() !== '');
  const known = diagnostics.filter((text) => KNOWN_UPSTREAM.some(({ pattern }) => pattern.test(text.trim())));
  const unknown = diagnostics.filter((text) => !known.includes(text));
  if (unknown.length > 0) {
    console.log(indent(unknown.join('\n')));
    fail(`tsc: ${unknown.length} error(s) in the packed types`);
  } else {
    console.log(`  tsc: ${what}: compiled`);
  }
  for (const { pattern, tracked } of KNOWN_UPSTREAM) {
    const hits = known.filter((text) => pattern.test(text.trim()));
    if (hits.length > 0)
      console.log(`  tsc: ${hits.length} known upstream error(s), not ours (${tracked}):\n${indent(hits.join('\n'))}`);
  }
}

function lintTarballs(packed) {
  console.log('\nattw and publint');
  const bin = join(ROOT, 'node_modules/.bin');
  for (const { manifest, tarball } of packed) {
    console.log(`  ${manifest.name}`);
    if (hasEntry(manifest)) {
      check(`attw: ${manifest.name}`, join(bin, 'attw'), [tarball, '--format', 'ascii', '--no-color', '--no-emoji']);
    } else {
      console.log('    attw: no importable entry (a command only), skipped');
    }
    check(`publint: ${manifest.name}`, join(bin, 'publint'), ['run', tarball, '--strict']);
  }
}

/** The files git would commit (tracked and new, not ignored), plus each package's built dist. */
function copyRepository(destination) {
  const files = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT })
    .split('\0')
    .filter((file) => file && existsSync(join(ROOT, file)));
  for (const file of files) cpSync(join(ROOT, file), join(destination, file));
  for (const { path } of workspacePackages(ROOT)) {
    const rel = path.slice(ROOT.length + 1);
    if (existsSync(join(path, 'dist'))) cpSync(join(path, 'dist'), join(destination, rel, 'dist'), { recursive: true });
    // The links pnpm made (siblings are relative, so they point inside the copy).
    if (existsSync(join(path, 'node_modules'))) {
      cpSync(join(path, 'node_modules'), join(destination, rel, 'node_modules'), {
        recursive: true,
        verbatimSymlinks: true,
      });
    }
  }
  symlinkSync(join(ROOT, 'node_modules'), join(destination, 'node_modules'));
}

function releaseRehearsal(work) {
  console.log('\nRelease rehearsal on a copy: changeset version, then pnpm -r pack');
  const copy = join(work, 'release');
  mkdirSync(copy);
  copyRepository(copy);
  const pending = readdirSync(join(copy, '.changeset')).filter((file) => file.endsWith('.md') && file !== 'README.md');
  const before = new Map(workspacePackages(copy).map(({ manifest }) => [manifest.name, manifest.version]));
  if (
    !check('changeset version', 'node', [join(ROOT, 'node_modules/@changesets/cli/bin.js'), 'version'], { cwd: copy })
  ) {
    return;
  }
  const packages = workspacePackages(copy);
  const published = packages.filter(({ manifest }) => !manifest.private);
  const versions = new Map(packages.map(({ manifest }) => [manifest.name, manifest]));
  for (const { manifest } of published) {
    const was = before.get(manifest.name);
    console.log(`  ${manifest.name}: ${was}${was === manifest.version ? ' (unchanged)' : ` -> ${manifest.version}`}`);
  }
  console.log(`  (${pending.length} changesets consumed)`);
  let order;
  try {
    order = publishOrder(published);
  } catch (error) {
    fail(error.message);
    return;
  }
  for (const { manifest } of published) {
    for (const dep of dependencyNames(manifest)) {
      if (versions.get(dep)?.private) fail(`${manifest.name} depends on the private package ${dep}`);
    }
  }
  console.log(`  publish order: ${order.map(({ manifest }) => manifest.name).join(', ')}`);
  const destination = join(work, 'release-tarballs');
  mkdirSync(destination);
  try {
    pnpm(['-r', '--filter', './packages/*', 'pack', '--pack-destination', destination], { cwd: copy });
  } catch (error) {
    console.log(indent(`${error.stdout ?? ''}${error.stderr ?? ''}`));
    fail('pnpm -r pack');
    return;
  }
  for (const { manifest: source } of published) {
    const tarball = join(destination, `${source.name.replace('@', '').replace('/', '-')}-${source.version}.tgz`);
    if (!existsSync(tarball)) {
      fail(`release: no tarball for ${source.name}@${source.version}`);
      continue;
    }
    const manifest = JSON.parse(tarFile(tarball, 'package.json'));
    if (manifest.version !== source.version) fail(`release: ${source.name} packed as ${manifest.version}`);
    for (const [dep, range] of Object.entries({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const sibling = versions.get(dep);
      if (!sibling) continue;
      if (range.replace(/^[\^~]/, '') !== sibling.version) {
        fail(`release: ${source.name} depends on ${dep}@${range}, but ${dep} is released as ${sibling.version}`);
      }
    }
  }
  console.log(`  ${published.length} tarballs packed with matching versions`);
}

function main() {
  const work = mkdtempSync(join(tmpdir(), 'marketlens-pack-'));
  console.log(`Packing into ${work}`);
  try {
    const tarballs = join(work, 'tarballs');
    const npmTarballs = join(work, 'npm-tarballs');
    mkdirSync(tarballs);
    mkdirSync(npmTarballs);
    const published = publishOrder(workspacePackages(ROOT).filter(({ manifest }) => !manifest.private));
    for (const { path } of published) {
      if (!existsSync(join(path, 'dist'))) throw new Error(`${path} is not built: run pnpm build first`);
    }
    const packed = published.map(({ path, manifest }) => {
      const file = join(path, 'package.json');
      const before = readFileSync(file);
      let npmTarball;
      try {
        npmTarball = packNpm(path, npmTarballs);
      } finally {
        if (!readFileSync(file).equals(before)) {
          fail(`${manifest.name}: npm pack left package.json changed (its postpack restores it)`);
          writeFileSync(file, before);
        }
      }
      const tarball = pack(path, tarballs);
      if (!readFileSync(file).equals(before)) {
        fail(`${manifest.name}: pnpm pack left package.json changed (its postpack restores it)`);
        writeFileSync(file, before);
      }
      const byNpm = inspectTarball(npmTarball, manifest, 'npm');
      const byPnpm = inspectTarball(tarball, manifest, 'pnpm');
      sameRanges(manifest.name, byNpm, byPnpm);
      return { tarball, npmTarball, manifest: byPnpm };
    });
    // npm's tarballs are the ones npm could not install before (EUNSUPPORTEDPROTOCOL).
    consumerCheck(
      work,
      packed.map(({ npmTarball, manifest }) => ({ tarball: npmTarball, manifest })),
    );
    lintTarballs(packed);
    releaseRehearsal(work);
  } finally {
    if (KEEP) console.log(`\nKept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(`\npack-check: ${failures.length} failure(s)`);
    for (const message of failures) console.error(`  - ${message}`);
    process.exit(1);
  }
  console.log('\npack-check: every package packs, installs, compiles, lints and releases cleanly');
}

main();
