import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../../core/src/testing/shared-data.js';
import { BINARY, ensureBuilt, FIXED_NOW } from './testing/binary.js';

/** util-linux `script` gives the command a pseudo-terminal (Debian's bsdutils, always installed there). */
const noScript = skipWithout(
  spawnSync('sh', ['-c', 'command -v script']).status === 0,
  "util-linux's `script`",
  'Install it: apt-get install -y bsdutils.',
);

function inTerminal(args: string, env: Record<string, string> = {}): { code: number | null; output: string } {
  const { NO_COLOR: _n, ...base } = process.env;
  const r = spawnSync('script', ['-qfec', `${process.execPath} ${BINARY} ${args}`, '/dev/null'], {
    encoding: 'utf8',
    env: { ...base, MARKETLENS_NOW: FIXED_NOW, COLUMNS: '120', ...env },
    input: '',
    timeout: 60_000,
  });
  return { code: r.status, output: r.stdout };
}

beforeAll(() => {
  ensureBuilt();
}, 120_000);

describe.skipIf(noScript)('in a pseudo-terminal (util-linux script; skipped when it is not installed)', () => {
  it('screen draws a progress bar on stderr and clears it', () => {
    const r = inTerminal('screen --class coins');
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/screening \[#+\.*\] +\d+%/);
    expect(r.output).toContain('screening [##############################] 100%');
    expect(r.output).toContain('\r\u001b[K');
    expect(r.output).toContain('Breakouts');
  });

  it('backtest draws a progress bar', () => {
    const r = inTerminal('backtest bitcoin --limit 400');
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/backtesting \[#*\.*\] +\d+%/);
  });

  it('colours on a terminal, and never with NO_COLOR', () => {
    const coloured = inTerminal('signal bitcoin');
    expect(coloured.code).toBe(0);
    expect(coloured.output).toContain('\u001b[1mmarketlens signal');
    const plain = inTerminal('signal bitcoin', { NO_COLOR: '1' });
    expect(plain.output).not.toContain('\u001b[');
  });
});
