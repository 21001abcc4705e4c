import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { harness } from '../support/harness.js';
import { type ServedDocument, servedDocument } from './document.js';
import { invalidArb, type JsonSchema, resolverOf, validArb } from './schema-arbitrary.js';

/** The fuzz's generators checked against ajv over every schema of the served document. */

let doc: ServedDocument;

beforeAll(async () => {
  const h = harness();
  doc = await servedDocument((p) => h.request(p));
});

/** The schemas the fuzz draws from: every operation's parameter schemas and JSON body schema. */
function schemasOfDocument(): [string, JsonSchema, string[]][] {
  const out: [string, JsonSchema, string[]][] = [];
  for (const op of doc.operations) {
    const base = ['paths', op.path, op.method.toLowerCase()];
    op.parameters.forEach((p, i) => {
      if (p.schema)
        out.push([`${op.method} ${op.path} ${p.name}`, p.schema, [...base, 'parameters', String(i), 'schema']]);
    });
    if (op.body) {
      out.push([
        `${op.method} ${op.path} body`,
        op.body.schema,
        [...base, 'requestBody', 'content', 'application/json', 'schema'],
      ]);
    }
  }
  return out;
}

describe('JSON-schema arbitraries', () => {
  it('draw valid values ajv accepts, for every request schema', () => {
    const resolve = resolverOf(doc.raw);
    const failures: string[] = [];
    for (const [name, schema, ptr] of schemasOfDocument()) {
      const validate = doc.validator(ptr);
      for (const v of fc.sample(validArb(schema, resolve), { numRuns: 30, seed: 7 })) {
        if (!validate(v))
          failures.push(`${name}: ${JSON.stringify(v).slice(0, 120)} ${doc.ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
  });

  it('draw invalid values ajv rejects, for every request schema that can be broken', () => {
    const resolve = resolverOf(doc.raw);
    const failures: string[] = [];
    let broken = 0;
    for (const [name, schema, ptr] of schemasOfDocument()) {
      const arb = invalidArb(schema, resolve);
      if (!arb) continue;
      broken++;
      const validate = doc.validator(ptr);
      for (const v of fc.sample(arb, { numRuns: 30, seed: 7 })) {
        if (validate(v)) failures.push(`${name}: ${JSON.stringify(v).slice(0, 120)} passed`);
      }
    }
    expect(failures.slice(0, 10)).toEqual([]);
    expect(broken).toBeGreaterThan(10);
  });

  it('handles the keywords the document uses', () => {
    const resolve = resolverOf({ components: { schemas: { N: { type: 'integer', minimum: 1, maximum: 3 } } } });
    const schema: JsonSchema = {
      type: 'object',
      properties: { n: { $ref: '#/components/schemas/N' }, e: { enum: ['a', 'b'] }, u: { type: ['string', 'null'] } },
      required: ['n'],
    };
    for (const v of fc.sample(validArb(schema, resolve), { numRuns: 50, seed: 1 }) as Record<string, unknown>[]) {
      expect([1, 2, 3]).toContain(v.n);
      if ('e' in v) expect(['a', 'b']).toContain(v.e);
    }
    const invalid = invalidArb(schema, resolve);
    expect(invalid).not.toBeNull();
    expect(invalidArb({}, resolve)).toBeNull();
  });
});
