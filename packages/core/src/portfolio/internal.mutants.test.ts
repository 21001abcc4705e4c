// Tests written against the survivors of the mutation run (docs/testing.md, "Mutation score"):
// the field readers every portfolio normalizer uses, each error naming the record and field
// (`fills[2].price`) as their contract says, and the money helpers.
import { describe, expect, it } from 'vitest';
import { caughtInputError as caught } from '../testing/bad-input.js';
import { checkArray, dec, decSum, fieldsOf, iso, isoOrNull, toNum } from './internal.js';

describe('fieldsOf', () => {
  const row = {
    name: 'btc',
    empty: '',
    count: 3,
    nan: Number.NaN,
    inf: Number.POSITIVE_INFINITY,
    text: 'x',
    zero: 0,
    negative: -2,
    nil: null,
    time: 1_700_000_000_000,
    far: 8.64e15 + 1,
    edge: -8.64e15,
    side: 'long',
  };

  it('names the record, its index and the field in every error', () => {
    const f = fieldsOf(row, 'fills', 2);
    const e = caught(() => f.number('text'));
    expect(e.message).toBe('fills[2].text must be a number, got x');
    expect([e.code, e.field, e.index]).toEqual(['invalid_option', 'text', 2]);
    const g = fieldsOf(row, 'position');
    const e2 = caught(() => g.number('count2'));
    expect(e2.message).toBe('position.count2 must be a number, got undefined');
    expect(e2.index).toBeUndefined();
  });

  it('reads numbers: finite, or a non_finite error; null or undefined as absent where allowed', () => {
    const f = fieldsOf(row, 'r', 0);
    expect(f.number('count')).toBe(3);
    for (const field of ['nan', 'inf']) {
      const e = caught(() => f.number(field));
      expect(e.code).toBe('non_finite');
      expect(e.message).toBe(`r[0].${field} is ${String(row[field as 'nan' | 'inf'])}; it must be finite`);
    }
    expect(f.numberOrNull('nil')).toBeNull();
    expect(f.numberOrNull('missing')).toBeNull();
    expect(f.numberOrNull('count')).toBe(3);
    expect(caught(() => f.numberOrNull('text')).field).toBe('text');
  });

  it('reads positive and non-negative numbers, with zero and negatives as "not set"', () => {
    const f = fieldsOf(row, 'r');
    expect(f.positiveOrNull('count')).toBe(3);
    expect(f.positiveOrNull('zero')).toBeNull();
    expect(f.positiveOrNull('negative')).toBeNull();
    expect(f.positiveOrNull('nil')).toBeNull();
    expect(f.nonNegativeOrNull('zero')).toBe(0);
    expect(f.nonNegativeOrNull('count')).toBe(3);
    expect(f.nonNegativeOrNull('negative')).toBeNull();
    expect(f.nonNegativeOrNull('nil')).toBeNull();
  });

  it("reads times within Date's range (edges included), and requires one where it must", () => {
    const f = fieldsOf(row, 'r', 1);
    expect(f.timeOrNull('time')).toBe(1_700_000_000_000);
    expect(f.timeOrNull('edge')).toBe(-8.64e15);
    expect(f.timeOrNull('nil')).toBeNull();
    const far = caught(() => f.timeOrNull('far'));
    expect(far.message).toBe(`r[1].far is ${8.64e15 + 1}; it must be a time in ms within Date's range`);
    expect(far.code).toBe('invalid_option');
    expect(f.time('time')).toBe(1_700_000_000_000);
    expect(caught(() => f.time('nil')).message).toBe('r[1].nil must be a time in ms since the epoch');
  });

  it('reads strings: non-empty where required, null where allowed', () => {
    const f = fieldsOf(row, 'r', 0);
    expect(f.string('name')).toBe('btc');
    expect(caught(() => f.string('empty')).message).toBe('r[0].empty must be a non-empty string, got ');
    expect(caught(() => f.string('count')).message).toBe('r[0].count must be a non-empty string, got 3');
    expect(f.stringOrNull('name')).toBe('btc');
    expect(f.stringOrNull('empty')).toBe('');
    expect(f.stringOrNull('nil')).toBeNull();
    expect(f.stringOrNull('missing')).toBeNull();
    expect(caught(() => f.stringOrNull('count')).message).toBe('r[0].count must be a string or null, got 3');
  });

  it('reads a choice and lists the choices when the value is not one', () => {
    const f = fieldsOf(row, 'r', 0);
    expect(f.choice('side', ['long', 'short'])).toBe('long');
    expect(caught(() => f.choice('name', ['long', 'short'])).message).toBe(
      "r[0].name must be one of 'long', 'short', got btc",
    );
    expect(caught(() => f.choice('count', ['3'])).field).toBe('count');
  });

  it('fails with the code asked for, invalid_option by default', () => {
    const f = fieldsOf(row, 'r', 4);
    expect(caught(() => f.fail('x', 'is wrong')).code).toBe('invalid_option');
    const e = caught(() => f.fail('x', 'is wrong', 'non_finite'));
    expect([e.code, e.message, e.field, e.index]).toEqual(['non_finite', 'r[4].x is wrong', 'x', 4]);
  });

  it('rejects a record that is not an object, naming it', () => {
    for (const bad of [null, undefined, 3, 'row']) {
      const e = caught(() => fieldsOf(bad, 'balances', 7));
      expect(e.message).toBe('balances[7] must be an object');
      expect([e.code, e.field, e.index]).toEqual(['invalid_option', 'balances', 7]);
    }
    expect(caught(() => fieldsOf(null, 'position')).message).toBe('position must be an object');
  });
});

describe('money helpers', () => {
  it('sums exactly in decimal and rounds once', () => {
    expect(toNum(decSum([0.1, 0.2]))).toBe(0.3);
    expect(toNum(decSum([]))).toBe(0);
    expect(toNum(dec(1).div(3).times(3))).toBe(1);
    // -0 reads as 0
    expect(Object.is(toNum(dec(-0)), 0)).toBe(true);
    expect(Object.is(toNum(dec(0.1).minus(0.1).times(-1)), 0)).toBe(true);
  });

  it('keeps 60 significant digits, half-even', () => {
    expect(dec(1).div(3).toString()).toBe(`0.${'3'.repeat(60)}`);
    expect(dec(2).div(3).toString()).toBe(`0.${'6'.repeat(59)}7`);
  });

  it('writes times as ISO 8601 UTC, null as null, and checks arrays by name', () => {
    expect(iso(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isoOrNull(86_400_000)).toBe('1970-01-02T00:00:00.000Z');
    expect(isoOrNull(null)).toBeNull();
    const rows = [1, 2];
    expect(checkArray(rows, 'fills')).toBe(rows);
    const e = caught(() => checkArray('x' as unknown as number[], 'fills'));
    expect([e.code, e.message, e.field]).toEqual(['invalid_option', 'fills must be an array', 'fills']);
  });
});
