import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Lru } from './lru.js';

describe('Lru', () => {
  it('behaves like a recency-ordered model with a capacity and an age limit', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 6 }), dt: fc.nat(30) }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 6 }), dt: fc.nat(30) }),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 100 }),
        fc.array(op),
        (cap, maxAge, ops) => {
          const lru = new Lru<number>(cap, maxAge);
          let model: { key: string; value: number; at: number }[] = [];
          let now = 0;
          ops.forEach((o, i) => {
            now += o.dt;
            const key = String(o.key);
            const found = model.find((e) => e.key === key);
            model = model.filter((e) => e.key !== key);
            if (o.kind === 'set') {
              lru.set(key, i, now);
              model.push({ key, value: i, at: now });
              if (model.length > cap) model.shift();
            } else {
              const fresh = found !== undefined && now - found.at < maxAge;
              expect(lru.get(key, now)).toBe(fresh ? found?.value : undefined);
              if (found && fresh) model.push(found);
            }
            expect(lru.size).toBeLessThanOrEqual(cap);
          });
        },
      ),
    );
  });

  it('forgets a deleted key', () => {
    const lru = new Lru<number>(2);
    lru.set('a', 1, 0);
    lru.delete('a');
    lru.delete('absent');
    expect([lru.get('a', 0), lru.size]).toEqual([undefined, 0]);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
