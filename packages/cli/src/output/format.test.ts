import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Align, num, pct, price, table } from './format.js';
import { stripAnsi, visibleWidth } from './style.js';

describe('table', () => {
  it('aligns columns whatever the cells, colour included', () => {
    const text = fc
      .string({ maxLength: 10 })
      .filter((s) => ![...s].some((ch) => ch.charCodeAt(0) < 32) && s === s.trimEnd());
    const cell = fc.oneof(
      text,
      text.map((s) => `\u001b[32m${s}\u001b[39m`),
    );
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 5 })
          .chain((cols) =>
            fc.tuple(
              fc.array(fc.array(cell, { minLength: cols, maxLength: cols }), { minLength: 1, maxLength: 6 }),
              fc.array(fc.constantFrom<Align>('left', 'right'), { minLength: cols, maxLength: cols }),
            ),
          ),
        ([rows, align]) => {
          const lines = table(rows, align).split('\n').slice(0, -1);
          expect(lines).toHaveLength(rows.length);
          const widths = align.map((_, c) => Math.max(...rows.map((r) => visibleWidth(r[c]))));
          const total = widths.reduce((s, w) => s + w, 0) + 2 * (widths.length - 1);
          lines.forEach((line, r) => {
            const chars = [...stripAnsi(line)];
            while (chars.length < total) chars.push(' ');
            let start = 0;
            align.forEach((side, c) => {
              const got = chars.slice(start, start + widths[c]).join('');
              const plain = stripAnsi(rows[r][c]);
              const pad = ' '.repeat(widths[c] - visibleWidth(plain));
              expect(got).toBe(side === 'right' ? pad + plain : plain + pad);
              start += widths[c] + 2;
            });
          });
        },
      ),
    );
  });

  it('right-aligns numbers', () => {
    expect(
      table(
        [
          ['a', 'b'],
          ['x', '1.5'],
          ['yy', '10.25'],
        ],
        ['left', 'right'],
      ),
    ).toBe('a       b\nx     1.5\nyy  10.25\n');
  });
});

describe('numbers', () => {
  it('formats unknown as n/a and prices by magnitude', () => {
    expect(num(null)).toBe('n/a');
    expect(num(Number.NaN)).toBe('n/a');
    expect(price(123456.789)).toBe('123456.79');
    expect(price(1.23456)).toBe('1.2346');
    expect(price(0.00001236)).toBe('0.00001236');
    expect(pct(1.5)).toBe('+1.50%');
    expect(pct(-2)).toBe('-2.00%');
  });
});
