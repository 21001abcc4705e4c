#!/usr/bin/env node
/**
 * Docs that run: every fenced block of README.md and packages/*\/README.md is checked, and so is
 * every fenced block of an `@example` in the doc comments of the main entry points (EXAMPLE_SOURCES,
 * shown in the API reference that `pnpm docs:api` builds). An `@example` must be one ts or js fence.
 *
 * - js / ts: type-checked together under `strict` (JavaScript with `checkJs`) against the built
 *   packages, and each one runs with node (TypeScript transpiled first) without the network and
 *   with a deadline, so a snippet that leaves a server or a timer running fails. Each snippet has
 *   its own folder (its working directory) under examples/.readme-snippets/, removed afterwards,
 *   and resolves packages the way examples/ does, through examples/node_modules.
 * - json: must parse.
 * - sh: every `marketlens`, `node packages/cli/dist/main.js`, `pnpm`, `npx`, `npm i` and
 *   `node <file>` command must name a command, option, script, package or file that exists.
 *   Nothing is installed or fetched; `curl` and `openssl` lines are listed, not run.
 *
 * A comment on the line right before a fence changes how its block is checked, always with a reason:
 *   <!-- snippet: compile-only (reads Binance over the network) -->   js / ts: type-check, do not run
 *   <!-- snippet: jsonc (comments explain the fields) -->             json: comments allowed
 *
 *   node scripts/readme-snippets.mjs          check every README
 *   node scripts/readme-snippets.mjs --keep   keep examples/.readme-snippets/ to look at the files
 *
 * Exits 1 on any failure, naming the README (or source file) and line.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK = join(ROOT, 'examples', '.readme-snippets');
const CLI = join(ROOT, 'packages/cli/dist/main.js');
// Generous: a run is a few seconds, but CI machines are shared; a snippet left serving still fails.
const RUN_TIMEOUT_MS = 60_000;
const PARALLEL = Math.max(2, availableParallelism());

const ts = createRequire(join(ROOT, 'package.json'))('typescript');

const JS_LANGS = new Set(['js', 'javascript', 'mjs']);
const TS_LANGS = new Set(['ts', 'typescript', 'mts']);
const SH_LANGS = new Set(['sh', 'bash', 'shell']);
const TEXT_LANGS = new Set(['text', 'txt', 'console', 'output']);
const MARKER = /^<!--\s*snippet:\s*([a-z-]+)\s*(?:\((.*)\))?\s*-->$/;
const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;

/** Source files whose doc comments' `@example` blocks are checked like README blocks: the main entry points. */
const EXAMPLE_SOURCES = [
  'packages/core/src/analyze.ts',
  'packages/core/src/signal/signal.ts',
  'packages/core/src/levels/zones.ts',
  'packages/core/src/plan/plan.ts',
  'packages/exchanges/src/simulated/venue.ts',
  'packages/exchanges/src/open-market.ts',
  'packages/exchanges/src/files/import.ts',
  'packages/contract/src/envelope.ts',
];

// ---------------------------------------------------------------------------------------------
// The type check runs in a worker thread, beside the snippet runs and the shell checks.

/** Diagnostics of a strict program over the snippet files, as plain objects. */
function diagnosticsOf(files) {
  const { options, errors } = ts.convertCompilerOptionsFromJson(
    {
      strict: true,
      noEmit: true,
      allowJs: true,
      checkJs: true,
      target: 'ES2022',
      lib: ['ES2022'],
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      moduleDetection: 'force',
      types: ['node'],
      skipLibCheck: true,
    },
    WORK,
  );
  if (errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(errors[0].messageText, '\n'));
  const program = ts.createProgram(files, options);
  const roots = new Set(files.map((f) => resolve(f)));
  const sources = program.getSourceFiles();
  // Only the snippets' own diagnostics: a package's code is its own tests' business.
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  for (const file of sources.filter((f) => roots.has(resolve(f.fileName)))) {
    diagnostics.push(...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file));
  }
  // A package resolved to JavaScript has no declarations: its types would be guessed, not checked.
  const untyped = sources
    .map((f) => resolve(f.fileName))
    .filter((f) => /\.[cm]?js$/.test(f) && !roots.has(f))
    .map((f) => relative(ROOT, f));
  const found = diagnostics.map((d) => {
    const at = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0) : { line: 0, character: 0 };
    return {
      file: d.file ? resolve(d.file.fileName) : null,
      line: at.line,
      character: at.character,
      code: d.code,
      text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
  return { diagnostics: found, untyped };
}

function typecheckInWorker(files) {
  return new Promise((done, failed) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: { files } });
    worker.once('message', done);
    worker.once('error', failed);
  });
}

// ---------------------------------------------------------------------------------------------
// Blocks

function readmes() {
  const files = ['README.md'];
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    if (existsSync(join(ROOT, 'packages', dir, 'README.md'))) files.push(`packages/${dir}/README.md`);
  }
  return files;
}

/** A block's report: `ok` / `FAIL` lines printed in README order, failures listed again at the end. */
function report(block) {
  block.lines = [];
  block.failures = [];
  return {
    ok: (text) => block.lines.push(`ok   ${block.file}:${block.line} ${text}`),
    fail: (where, text) => {
      block.lines.push(`FAIL ${where} ${text}`);
      block.failures.push(`${where}: ${text.split('\n')[0]}`);
    },
    detail: (text) => block.lines.push(`     ${text}`),
  };
}

/**
 * The fenced blocks of one markdown file: language, line of the opening fence (1-based), body,
 * and the marker on the line right before the fence.
 */
function blocksOf(file, orphans, lines = readFileSync(join(ROOT, file), 'utf8').split('\n')) {
  const blocks = [];
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (open) {
      if (line.trim() === open.fence) {
        blocks.push({ ...open.block, body: open.body.join('\n') });
        open = null;
      } else {
        open.body.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
      }
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = i > 0 ? MARKER.exec(lines[i - 1].trim()) : null;
      const block = { file, line: i + 1, lang: fence[3].toLowerCase(), marker: null };
      if (marker) block.marker = { kind: marker[1], reason: (marker[2] ?? '').trim() };
      open = { fence: fence[2], indent: fence[1].length, body: [], block };
    } else if (MARKER.test(line.trim()) && !FENCE.test(lines[i + 1] ?? '')) {
      orphans.push(`${file}:${i + 1}: a snippet marker must be on the line right before a fence`);
    }
  }
  if (open) orphans.push(`${file}:${open.block.line}: a fence that is never closed`);
  return blocks;
}

/**
 * The fenced blocks of the `@example` tags of a source file's doc comments, with their line in the
 * source. An `@example` runs to the next tag or the end of its comment; its text, without the
 * comment's leading ` * `, is read as markdown with every other line blank, so each block keeps its
 * line. An `@example` without exactly one js or ts fence is a failure: TypeDoc would show it, unchecked.
 */
function exampleBlocksOf(file, orphans) {
  const source = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const lines = source.map(() => '');
  const examples = [];
  let inComment = false;
  let example = null;
  for (let i = 0; i < source.length; i++) {
    const line = source[i].trim();
    if (!inComment && line.startsWith('/**')) inComment = true;
    if (!inComment) continue;
    const ends = line.endsWith('*/');
    const text = source[i].replace(/^\s*(\/\*\*|\*\/|\*(?!\/))? ?/, '').replace(/\s*\*\/\s*$/, '');
    if (/^@\w+/.test(text.trim())) example = text.trim().startsWith('@example') ? { line: i + 1 } : null;
    if (example && /^@example/.test(text.trim())) examples.push(example);
    else if (example) lines[i] = text;
    if (ends) {
      inComment = false;
      example = null;
    }
  }
  const blocks = blocksOf(file, orphans, lines);
  for (const b of blocks) b.column = source[b.line - 1].length - lines[b.line - 1].length; // the ` * ` before the text
  for (const e of examples) {
    const next = examples.find((n) => n.line > e.line)?.line ?? Number.POSITIVE_INFINITY;
    const own = blocks.filter((b) => b.line > e.line && b.line < next);
    if (own.length !== 1 || !(JS_LANGS.has(own[0].lang) || TS_LANGS.has(own[0].lang))) {
      orphans.push(`${file}:${e.line}: an @example must hold exactly one ts or js fence (it holds ${own.length})`);
    }
  }
  return blocks;
}

/** A marker the block's kind does not take, or one without a reason, is itself a failure. */
function checkMarker(block, r, allowed) {
  if (!block.marker) return true;
  const where = `${block.file}:${block.line - 1}`;
  if (block.marker.kind !== allowed) {
    r.fail(
      where,
      `marker '${block.marker.kind}' on a ${block.lang || 'plain'} block (${allowed || 'none'} is allowed here)`,
    );
    return false;
  }
  if (!block.marker.reason) {
    r.fail(where, `<!-- snippet: ${allowed} (...) --> needs a reason in parentheses`);
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// js / ts

/** Bare package names a snippet imports (`@scope/name` or `name`), node built-ins excluded. */
function importedPackages(source) {
  const names = new Set();
  for (const m of source.matchAll(/(?:from\s*|import\s*\(\s*|import\s+)['"]([^'"./][^'"]*)['"]/g)) {
    if (m[1].startsWith('node:')) continue;
    const parts = m[1].split('/');
    names.add(m[1].startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

function resolvableFromWork(name) {
  for (let dir = WORK; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dir === dirname(dir)) return false;
  }
}

/** A package the examples do not depend on, in the workspace: the package itself, or a package's dependency. */
function workspaceCopyOf(name) {
  const dirs = readdirSync(join(ROOT, 'packages')).map((d) => join(ROOT, 'packages', d));
  const own = dirs.find((d) => existsSync(join(d, 'package.json')) && readJson(join(d, 'package.json')).name === name);
  return own ?? dirs.map((d) => join(d, 'node_modules', name)).find((d) => existsSync(join(d, 'package.json'))) ?? null;
}

/**
 * Makes every package the snippets import resolvable from WORK. One that examples/ does not
 * depend on is linked from the workspace for this run and reported as a warning: the fix is a
 * dependency in examples/package.json. One that is nowhere fails the snippets importing it.
 */
function linkMissingPackages(snippets) {
  const wanted = new Map();
  for (const s of snippets) {
    for (const name of importedPackages(s.body)) wanted.set(name, [...(wanted.get(name) ?? []), s]);
  }
  const warnings = [];
  for (const [name, users] of wanted) {
    if (resolvableFromWork(name)) continue;
    const where = users.map((s) => `${s.file}:${s.line}`).join(', ');
    const copy = workspaceCopyOf(name);
    if (!copy) {
      for (const s of users)
        s.report.fail(`${s.file}:${s.line}`, `imports ${name}: not installed anywhere in the repository`);
      continue;
    }
    const link = join(WORK, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(copy, link, 'dir');
    warnings.push(`${name} (${where}) is not a dependency of examples/package.json: linked to ${relative(ROOT, copy)}`);
  }
  return warnings;
}

/** Every snippet runs under this: a connection to anything but this machine throws. */
const NETWORK_GUARD = `import net from 'node:net';
const local = (host) => host == null || host === '' || host === 'localhost' || host === '::1' || host === '0.0.0.0' || host === '::' || /^127\\./.test(host);
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const options = first !== null && typeof first === 'object' ? first : { port: first, host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path == null && !local(options.host)) {
    const message = 'README snippets run without the network: a connection to ' + options.host + ':' + options.port + ' was refused';
    process.stderr.write(message + '\\n');
    throw new Error(message);
  }
  return connect.apply(this, args);
};
`;

function transpile(body, source) {
  const { outputText, sourceMapText } = ts.transpileModule(`${body}\n`, {
    fileName: source,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, sourceMap: true },
  });
  const map = JSON.parse(sourceMapText ?? '{}');
  map.sources = [pathToFileURL(source).href];
  const inline = Buffer.from(JSON.stringify(map)).toString('base64');
  return `${outputText.replace(/\/\/# sourceMappingURL=.*\n?$/, '')}\n//# sourceMappingURL=data:application/json;base64,${inline}\n`;
}

/** Writes each snippet into its own folder; TypeScript also as the JavaScript node runs (with a source map). */
function prepare(blocks) {
  return blocks.map((b, i) => {
    const typed = TS_LANGS.has(b.lang);
    const name = `${String(i + 1).padStart(2, '0')}-${b.file.replace(/\/?README\.md$/, '').replace(/\W+/g, '-') || 'root'}-L${b.line}`;
    const dir = join(WORK, name);
    mkdirSync(dir, { recursive: true });
    const source = join(dir, typed ? 'snippet.mts' : 'snippet.mjs');
    writeFileSync(source, `${b.body}\n`);
    const runFile = typed ? join(dir, 'run.mjs') : source;
    if (typed) writeFileSync(runFile, transpile(b.body, source));
    b.kind = typed ? 'ts' : 'js';
    Object.assign(b, { dir, source, runFile, report: report(b) });
    return b;
  });
}

/** A snippet's temporary file paths in its output, as the README and line. */
function toReadmeLines(text, s) {
  let out = text;
  for (const path of [s.source, s.runFile]) {
    for (const form of [pathToFileURL(path).href, path]) {
      const at = new RegExp(`${form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?::(\\d+)(?::(\\d+))?)?`, 'g');
      out = out.replace(at, (_, line, col) =>
        line ? `${s.file}:${s.line + Number(line)}${col ? `:${col}` : ''}` : `${s.file}:${s.line}`,
      );
    }
  }
  return out;
}

function run(s) {
  return new Promise((done) => {
    const started = performance.now();
    const guard = pathToFileURL(join(WORK, 'guard.mjs')).href;
    const child = spawn(process.execPath, ['--enable-source-maps', '--import', guard, s.runFile], {
      cwd: s.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, timedOut, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

async function pool(items, work) {
  const queue = [...items];
  const workers = Array.from({ length: PARALLEL }, async () => {
    for (let item = queue.shift(); item; item = queue.shift()) await work(item);
  });
  await Promise.all(workers);
}

/** Type-checks every js / ts block and runs those not marked compile-only; fills each block's report. */
async function checkCode(blocks, timings, problems) {
  const snippets = prepare(blocks);
  const warnings = linkMissingPackages(snippets);
  const runnable = snippets.filter((s) => checkMarker(s, s.report, 'compile-only') && !s.marker);
  const started = performance.now();
  const types = typecheckInWorker(snippets.map((s) => s.source)).then((d) => {
    timings.typecheck = (performance.now() - started) / 1000;
    return d;
  });
  types.catch(() => {}); // awaited below, after the runs; a failure must not end the process before the clean-up
  await pool(runnable, async (s) => {
    s.result = await run(s);
  });
  timings.run = (performance.now() - started) / 1000;

  const bySource = new Map(snippets.map((s) => [s.source, s]));
  const { diagnostics, untyped } = await types;
  for (const d of diagnostics) {
    const s = d.file ? bySource.get(d.file) : undefined;
    const text = `TS${d.code} ${d.text}`;
    const column = d.character + 1 + (s?.column ?? 0);
    if (s) s.typeErrors = [...(s.typeErrors ?? []), `${s.file}:${s.line + 1 + d.line}:${column} ${text}`];
    else problems.push(`type check: ${text}`);
  }
  for (const file of untyped) {
    problems.push(
      `type check: snippets import ${file}, which has no type declarations (run pnpm build; a build in progress?)`,
    );
  }
  for (const s of snippets) {
    const r = s.report;
    const where = `${s.file}:${s.line}`;
    if (s.typeErrors) {
      for (const e of s.typeErrors) r.fail(e.split(' ')[0], `${s.kind}: type check: ${e.slice(e.indexOf(' ') + 1)}`);
    }
    const typed = s.typeErrors ? 'type errors' : 'type-checked';
    if (s.marker) {
      if (s.marker.reason && s.marker.kind === 'compile-only' && !s.typeErrors) {
        r.ok(`${s.kind}: type-checked; not run (compile-only: ${s.marker.reason})`);
      }
      continue;
    }
    if (!s.result) continue;
    const { code, signal, timedOut, output, seconds } = s.result;
    const printed = toReadmeLines(output, s).trimEnd();
    if (timedOut || code !== 0) {
      const why = timedOut
        ? `did not exit within ${RUN_TIMEOUT_MS / 1000} s (a server, socket or timer left open?)`
        : `exited with ${code ?? signal}`;
      // The README line the error points at, when its stack names one.
      const at = new RegExp(`${s.file.replace(/[./]/g, '\\$&')}:(\\d+)(:\\d+)?`).exec(printed);
      r.fail(at && Number(at[1]) > s.line ? at[0] : where, `${s.kind}: ${typed}; the run ${why}`);
      for (const line of printed.split('\n').slice(0, 30)) r.detail(`| ${line}`);
      continue;
    }
    const lines = printed ? printed.split('\n') : [];
    if (!s.typeErrors)
      r.ok(`${s.kind}: type-checked; ran in ${seconds.toFixed(1)} s${lines.length ? ', printed:' : ''}`);
    for (const line of lines.slice(0, 4)) r.detail(`| ${line.length > 110 ? `${line.slice(0, 107)}...` : line}`);
    if (lines.length > 4) r.detail(`| ... (${lines.length - 4} more lines)`);
  }
  return warnings;
}

// ---------------------------------------------------------------------------------------------
// json

/** Drops // and /* *\/ comments outside strings, keeping line numbers. */
function stripComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const string = /"(?:[^"\\]|\\.)*"/y;
      string.lastIndex = i;
      const s = string.exec(text)?.[0] ?? text.slice(i);
      out += s;
      i += s.length - 1;
    } else if (text.startsWith('//', i)) {
      while (i + 1 < text.length && text[i + 1] !== '\n') i++;
    } else if (text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      const skipped = text.slice(i, close < 0 ? text.length : close + 2);
      out += skipped.replace(/[^\n]/g, ' ');
      i += skipped.length - 1;
    } else out += text[i];
  }
  return out;
}

function checkJson(b) {
  const r = report(b);
  if (!checkMarker(b, r, 'jsonc')) return;
  const jsonc = b.marker?.kind === 'jsonc';
  try {
    JSON.parse(jsonc ? stripComments(b.body) : b.body);
    r.ok(`json: parses${jsonc ? ` (jsonc: ${b.marker.reason})` : ''}`);
  } catch (e) {
    const at = /position (\d+)/.exec(e.message);
    const line = at ? b.body.slice(0, Number(at[1])).split('\n').length : 1;
    r.fail(`${b.file}:${b.line + line}`, `json: ${e.message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// sh

/** Splits a shell line into commands of words: quotes, `$(...)`, `#` comments, `&&` `||` `;` `|`. */
function shellCommands(line) {
  const commands = [[]];
  let word = null;
  const end = () => {
    if (word !== null) commands.at(-1).push(word);
    word = null;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'" || c === '"') {
      const close = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, close < 0 ? line.length : close);
      i = close < 0 ? line.length : close;
    } else if (c === '$' && line[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      word = (word ?? '') + line.slice(i, j + 1);
      i = j;
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i++;
    } else if (c === '#' && word === null) {
      break;
    } else if (c === ' ' || c === '\t') {
      end();
    } else if (c === ';' || c === '|' || (c === '&' && line[i + 1] === '&')) {
      end();
      if (line[i + 1] === c) i++;
      commands.push([]);
    } else {
      word = (word ?? '') + c;
    }
  }
  end();
  return commands.filter((c) => c.length > 0);
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const rootManifest = readJson(join(ROOT, 'package.json'));
const workspace = new Map(
  readdirSync(join(ROOT, 'packages'))
    .filter((d) => existsSync(join(ROOT, 'packages', d, 'package.json')))
    .map((d) => readJson(join(ROOT, 'packages', d, 'package.json')))
    .map((pkg) => [pkg.name, pkg]),
);
const PNPM_BUILTINS = new Set([
  'install',
  'i',
  'add',
  'remove',
  'update',
  'exec',
  'dlx',
  'run',
  'why',
  'list',
  'outdated',
]);
const packageName = (spec) => spec.replace(/(.)@[^/]*$/, '$1');

const helps = new Map();
/** `marketlens <command> --help`, read once per command; null when it fails. */
function cliHelp(command) {
  if (!helps.has(command)) {
    helps.set(
      command,
      new Promise((done) => {
        const child = spawn(process.execPath, [CLI, ...command.split(' ').filter(Boolean), '--help'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
        });
        child.on('close', (code) => done(code === 0 ? out : null));
      }),
    );
  }
  return helps.get(command);
}

/** The CLI's commands, from the "Commands:" section of `marketlens --help`. */
async function cliCommands() {
  const help = (await cliHelp('')) ?? '';
  const section = help.split(/\n\s*\n/).find((p) => p.startsWith('Commands:')) ?? '';
  return section
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s{2,}/)[0])
    .filter(Boolean);
}

/** `marketlens <args>`: the command exists, each --option is one its help lists, a --config file exists. */
async function checkCli(args) {
  const leading = [];
  for (const a of args) {
    if (a.startsWith('-')) break;
    leading.push(a);
  }
  const commands = await cliCommands();
  let command = '';
  for (let n = leading.length; n > 0 && !command; n--) {
    if (commands.includes(leading.slice(0, n).join(' '))) command = leading.slice(0, n).join(' ');
  }
  if (!command && leading.length > 0) return `marketlens has no command '${leading[0]}' (marketlens --help)`;
  const options = args.filter((a) => a.startsWith('--')).map((a) => a.split('=')[0]);
  if (options.length === 0) return null;
  const help = await cliHelp(command);
  if (help === null) return `marketlens ${command} --help failed`;
  for (const option of options) {
    if (!new RegExp(`(^|[\\s,])${option}(?![\\w-])`).test(help)) return `marketlens ${command} has no option ${option}`;
  }
  const config = args.indexOf('--config');
  if (config >= 0 && !existsSync(join(ROOT, args[config + 1] ?? '')))
    return `--config ${args[config + 1]}: no such file`;
  return null;
}

/** `pnpm [--filter <package>] <script | builtin> ...` */
async function checkPnpm(args) {
  let filter = null;
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--filter' || args[i] === '-F') filter = args[++i];
    else if (args[i].startsWith('--filter=')) filter = args[i].slice('--filter='.length);
    else rest.push(args[i]);
  }
  const manifest = filter ? workspace.get(filter) : rootManifest;
  if (!manifest) return `pnpm --filter ${filter}: no workspace package of that name`;
  const [command, ...more] = rest;
  const scripts = manifest.scripts ?? {};
  if (!command || command in scripts) return null;
  if (command === 'run') return more[0] in scripts ? null : `${manifest.name} has no script '${more[0]}'`;
  if (command === 'exec' && more[0] === 'marketlens') return checkCli(more.slice(1));
  if (command === 'exec')
    return existsSync(join(ROOT, 'node_modules/.bin', more[0] ?? '')) ? null : `pnpm exec ${more[0]}: no such binary`;
  if (PNPM_BUILTINS.has(command)) return null;
  return `${manifest.name} has no script '${command}' (its package.json "scripts")`;
}

/** One shell command: a failure message, or null. `seen` collects what was checked, for the report. */
async function checkShellCommand(words, seen) {
  let i = 0;
  for (; i < words.length && /^[A-Za-z_]\w*=/.test(words[i]); i++) {
    const [name, value] = words[i].split(/=(.*)/s);
    if (name === 'MARKETLENS_CONFIG' && !existsSync(join(ROOT, value)))
      return `MARKETLENS_CONFIG=${value}: no such file`;
  }
  const [tool, ...args] = words.slice(i);
  if (tool === undefined) return null;
  const first = args.find((a) => !a.startsWith('-')) ?? '';
  const shown = words.slice(i).join(' ');
  seen.push(
    ['curl', 'openssl'].includes(tool)
      ? `${tool} ... (not checked)`
      : shown.length > 100
        ? `${shown.slice(0, 97)}...`
        : shown,
  );
  switch (tool) {
    case 'marketlens':
      return checkCli(args);
    case 'pnpm':
      return checkPnpm(args);
    case 'npx': {
      const rest = args.slice(args.indexOf(first) + 1);
      if (/^pnpm(@[\w.]+)?$/.test(first)) return checkPnpm(rest);
      if (first === 'marketlens') return checkCli(rest);
      const name = packageName(first);
      if (name in (rootManifest.devDependencies ?? {}) || workspace.has(name)) return null;
      return `npx ${first}: neither a root devDependency nor a workspace package`;
    }
    case 'npm': {
      if (!['i', 'install'].includes(args[0])) return `npm ${args[0]}: only npm i <package> is checked`;
      const unknown = args.slice(1).filter((a) => !a.startsWith('-') && !workspace.has(packageName(a)));
      return unknown.length > 0 ? `npm i ${unknown.join(' ')}: not a package of this repository` : null;
    }
    case 'node': {
      if (!first) return null;
      if (resolve(ROOT, first) === CLI) return checkCli(args.slice(args.indexOf(first) + 1));
      return existsSync(join(ROOT, first)) ? null : `node ${first}: no such file (paths are from the repository root)`;
    }
    case 'curl':
    case 'openssl':
      return null;
    default:
      return `'${tool}': no rule checks this command (add one to scripts/readme-snippets.mjs)`;
  }
}

async function checkShell(b) {
  const r = report(b);
  if (!checkMarker(b, r, '')) return;
  const lines = b.body.split('\n');
  const seen = [];
  let failed = false;
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i];
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]}`;
    for (const words of shellCommands(line)) {
      const problem = await checkShellCommand(words, seen);
      if (problem) {
        failed = true;
        r.fail(`${b.file}:${b.line + 1 + start}`, `sh: ${problem}`);
      }
    }
  }
  if (failed) return;
  r.ok(`sh: ${seen.length} command${seen.length === 1 ? '' : 's'}`);
  for (const c of seen) r.detail(`$ ${c}`);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const started = performance.now();
  if (!existsSync(CLI)) throw new Error('packages/cli/dist/main.js is missing: run pnpm build first');
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const cleanUp = () => {
    if (!process.argv.includes('--keep')) rmSync(WORK, { recursive: true, force: true });
  };
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      cleanUp();
      process.exit(130);
    });
  }
  writeFileSync(join(WORK, 'guard.mjs'), NETWORK_GUARD);

  const files = readmes();
  const problems = [];
  const blocks = [
    ...files.flatMap((f) => blocksOf(f, problems)),
    ...EXAMPLE_SOURCES.flatMap((f) => exampleBlocksOf(f, problems)),
  ];
  const code = blocks.filter((b) => JS_LANGS.has(b.lang) || TS_LANGS.has(b.lang));
  const json = blocks.filter((b) => b.lang === 'json' || b.lang === 'jsonc');
  const sh = blocks.filter((b) => SH_LANGS.has(b.lang));
  const text = blocks.filter((b) => TEXT_LANGS.has(b.lang));
  const timings = { typecheck: 0, run: 0 };
  let warnings = [];
  try {
    for (const b of json) checkJson(b);
    for (const b of text) report(b).ok(`${b.lang}: text, not checked`);
    for (const b of blocks.filter(
      (b) => !code.includes(b) && !json.includes(b) && !sh.includes(b) && !text.includes(b),
    )) {
      report(b).fail(
        `${b.file}:${b.line}`,
        `${b.lang ? `\`\`\`${b.lang}` : 'a fence without a language'}: no check for it (use js, ts, json, sh or text)`,
      );
    }
    const shell = Promise.all(sh.map(checkShell));
    warnings = await checkCode(code, timings, problems);
    await shell;
  } finally {
    cleanUp();
  }

  for (const b of blocks) for (const line of b.lines) console.log(line);
  for (const w of warnings) console.log(`warning: ${w}`);
  const ran = code.filter((s) => s.result).length;
  console.log(
    `\nreadme snippets: ${blocks.length} blocks in ${files.length} READMEs and the @examples of ${EXAMPLE_SOURCES.length} source files: ` +
      `${code.filter((b) => b.kind === 'js').length} js + ${code.filter((b) => b.kind === 'ts').length} ts type-checked, ${ran} of them run; ` +
      `${json.length} json parsed; ${sh.length} sh checked; ${text.length} text. ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s (type check ${timings.typecheck.toFixed(1)} s, runs ${timings.run.toFixed(1)} s)`,
  );
  const failures = [...problems, ...blocks.flatMap((b) => b.failures)];
  if (failures.length > 0) {
    console.log(`\n${failures.length} failure${failures.length > 1 ? 's' : ''}:`);
    for (const f of failures) console.log(`  ${f}`);
    process.exitCode = 1;
  }
}

if (isMainThread) await main();
else parentPort?.postMessage(diagnosticsOf(workerData.files));
