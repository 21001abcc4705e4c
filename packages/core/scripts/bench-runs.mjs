// Repeats scripts/bench.mjs: `--times` separate processes per build and mode (in sequence, one
// isolate; and --isolate, each case in a fresh worker), alternating builds and modes so that they
// share the machine's load, and records the load average before each run. Prints, per kernel,
// the fastest-peer/ours and ours/plain ratio of every run and the worst of them (targets are met
// only when every run meets them), then the streaming rows the same way.
// Usage: node scripts/bench-runs.mjs [--times 5] [--runs 7] [--skip technicalindicators]
//   [--log file.jsonl] [--markdown] [label=dist ...]   (default: after=dist)
import { execFileSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const times = Number(opt('times', '5'));
const runs = opt('runs', '7');
const skip = opt('skip', '');
const log = opt('log', '');
const markdown = args.includes('--markdown');
const builds = args.filter((a) => a.includes('=')).map((a) => a.split('='));
if (builds.length === 0) builds.push(['after', fileURLToPath(new URL('../dist', import.meta.url))]);
const bench = fileURLToPath(new URL('./bench.mjs', import.meta.url));

const results = []; // { label, mode, load, data }
for (let t = 0; t < times; t++) {
  for (const mode of ['sequence', 'worker']) {
    for (const [label, dist] of builds) {
      const load = loadavg().map((x) => x.toFixed(2));
      const a = ['--expose-gc', bench, '--json', '--runs', runs, '--dist', dist];
      if (skip) a.push('--skip', skip);
      if (mode === 'worker') a.push('--isolate');
      const out = execFileSync(process.execPath, a, { encoding: 'utf8', maxBuffer: 1 << 26 });
      const data = JSON.parse(out.trim().split('\n').pop());
      const r = { label, mode, run: t + 1, load, at: new Date().toISOString(), data };
      results.push(r);
      if (log) appendFileSync(log, `${JSON.stringify(r)}\n`);
      console.error(`run ${t + 1}/${times} ${label} ${mode}: load ${load.join(' ')}`);
    }
  }
}

const print = (head, rows) => {
  if (markdown) {
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map(() => '---').join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  } else {
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r) => r.map((x, i) => (i === 0 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ');
    console.log(line(head));
    for (const r of rows) console.log(line(r));
  }
  console.log('');
};
const x = (v) => `${v.toFixed(1)}x`;
for (const [label] of builds) {
  for (const mode of ['sequence', 'worker']) {
    const rs = results.filter((r) => r.label === label && r.mode === mode);
    if (rs.length === 0) continue;
    console.log(
      `${label}, ${mode === 'worker' ? 'each case in a fresh worker' : 'all cases in one process, in order'}; load average (1 min) before each run: ${rs.map((r) => r.load[0]).join(', ')}`,
    );
    const names = rs[0].data.rows.map((r) => r.name);
    const rows = names.map((name) => {
      const per = rs.map((r) => r.data.rows.find((q) => q.name === name));
      const sp = per.map((p) => p.speedup);
      const vp = per.map((p) => p.vsPlain);
      const worst = Math.min(...sp);
      const worstPlain = Math.max(...vp);
      return [
        name,
        sp.map(x).join(' '),
        x(worst),
        vp.map((v) => `${v.toFixed(2)}x`).join(' '),
        `${worstPlain.toFixed(2)}x`,
        [...new Set(per.map((p) => p.bestName))].join(', '),
        worst >= 2 && worstPlain <= 1.5 ? 'ok' : 'MISSED',
      ];
    });
    print(
      ['indicator', 'peer/ours per run', 'worst', 'ours/plain per run', 'worst', 'fastest peer', 'targets (every run)'],
      rows,
    );
    const sNames = rs[0].data.streams.map((s) => s.name);
    const sRows = sNames.map((name) => {
      const per = rs.map((r) => r.data.streams.find((q) => q.name === name));
      const ratio = per.map((p) => p.peer / p.ours);
      return [
        name,
        per.map((p) => p.ours.toFixed(2)).join(' '),
        per.map((p) => p.peer.toFixed(2)).join(' '),
        ratio.map(x).join(' '),
        Math.min(...ratio) >= 2 ? 'ok' : 'MISSED',
      ];
    });
    print(
      ['streaming', 'ours ns per run', 'trading-signals ns per run', 'peer/ours per run', 'target (every run)'],
      sRows,
    );
    const fl = rs.map((r) => r.data.floor).filter(Number.isFinite);
    if (fl.length)
      console.log(
        `memory floor (fresh ${rs[0].data.n.toLocaleString('en')}-value Float64Array written once), ms per run: ${fl.map((v) => v.toFixed(2)).join(' ')}\n`,
      );
  }
}
