import fc from 'fast-check';

/**
 * JSON Schema (the subset the served OpenAPI 3.1 document uses) to fast-check arbitraries:
 * `validArb` draws values the schema accepts, `invalidArb` values it certainly rejects. Used by
 * the schema-driven fuzz test; `schema-arbitrary.test.ts` checks both against ajv.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minProperties?: number;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
}

/** Resolves a local `$ref` (`#/components/schemas/X`) of the document. */
export type Resolver = (ref: string) => JsonSchema;

export function resolverOf(doc: unknown): Resolver {
  return (ref) => {
    if (!ref.startsWith('#/')) throw new Error(`only local $ref is supported: ${ref}`);
    let node: unknown = doc;
    for (const part of ref.slice(2).split('/')) {
      node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    }
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
    return node as JsonSchema;
  };
}

/** The schema with `$ref` chains followed and `allOf` of objects merged. */
export function deref(schema: JsonSchema, resolve: Resolver): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 32; i++) s = { ...resolve(s.$ref), ...withoutRef(s) };
  if (s.allOf) {
    const parts = s.allOf.map((p) => deref(p, resolve));
    const merged: JsonSchema = { ...s, allOf: undefined, type: s.type ?? parts.find((p) => p.type)?.type };
    for (const p of parts) {
      merged.properties = { ...merged.properties, ...p.properties };
      merged.required = [...(merged.required ?? []), ...(p.required ?? [])];
      for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'enum', 'format'] as const) {
        if (p[k] !== undefined && merged[k] === undefined) (merged as Record<string, unknown>)[k] = p[k];
      }
    }
    s = merged;
  }
  return s;
}

function withoutRef(s: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = s;
  return rest;
}

function typesOf(s: JsonSchema): string[] {
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.properties) return ['object'];
  if (s.items) return ['array'];
  return [];
}

/** Strings of printable ASCII and a little of everything else (what a client may send). */
const textChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_.') },
  { weight: 2, arbitrary: fc.string({ minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '中', '🙂', '\u0000', '\u202e', ' ', '%', '/', '"', "'", '\\') },
);

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? min + 24, min + 24);
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'email':
      return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254));
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl();
    default:
      break;
  }
  if (s.pattern) {
    const max = s.maxLength ?? Number.POSITIVE_INFINITY;
    return fc.stringMatching(new RegExp(s.pattern, 'u')).filter((v) => v.length >= min && v.length <= max);
  }
  // Lengths are counted in code units, as JSON Schema validators (and zod) do for these.
  return fc
    .array(textChar, { minLength: min, maxLength: max })
    .map((cs) => cs.join(''))
    .filter((v) => v.length >= min && v.length <= (s.maxLength ?? Number.POSITIVE_INFINITY));
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1e6);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : 1e6);
  if (integer) {
    min = Math.ceil(min);
    max = Math.floor(max);
    const edges = [min, max].filter((v) => Number.isSafeInteger(v));
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(...edges));
  }
  return fc.oneof(
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(min, max),
    fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, 1e9)) }),
  );
}

/** Values the schema accepts. `depth` bounds recursion. */
export function validArb(schema: JsonSchema, resolve: Resolver, depth = 0): fc.Arbitrary<unknown> {
  const s = deref(schema, resolve);
  const hints = [s.example, ...(s.examples ?? []), s.default].filter((v) => v !== undefined);
  const generated = generatedValid(s, resolve, depth);
  // Examples and defaults often name what actually exists (an asset id), so requests get past 404s.
  return hints.length > 0
    ? fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...hints) }, { weight: 3, arbitrary: generated })
    : generated;
}

function generatedValid(s: JsonSchema, resolve: Resolver, depth: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) {
    // oneOf branches of this document are disjoint by type; a draw from one branch is valid.
    return fc.oneof(...branches.map((b) => validArb(b, resolve, depth + 1)));
  }
  const types = typesOf(s);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((t) => validOfType(t, s, resolve, depth)));
}

function validOfType(t: string, s: JsonSchema, resolve: Resolver, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.min(s.maxItems ?? min + 3, min + 3);
      return fc.array(s.items && depth < 6 ? validArb(s.items, resolve, depth + 1) : fc.string(), {
        minLength: min,
        maxLength: max,
      });
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      if (depth >= 6 && required.size === 0) return fc.constant({});
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) model[k] = validArb(v, resolve, depth + 1);
      const record = fc.record(model, { requiredKeys: [...required].filter((k) => k in model) });
      const min = s.minProperties ?? 0;
      if (min <= required.size) return record;
      // At least `min` properties: the optional ones drawn are topped up from the model in order.
      return record.chain((drawn) => {
        const missing = Object.keys(model).filter((k) => !(k in drawn));
        const need = Math.max(0, min - Object.keys(drawn).length);
        const extra = missing.slice(0, need);
        return fc.record(Object.fromEntries(extra.map((k) => [k, model[k]]))).map((more) => ({ ...drawn, ...more }));
      });
    }
    default:
      return fc.constant(null);
  }
}

const WRONG_TYPES: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({ x: 1 })),
  integer: fc.oneof(fc.constant('12x'), fc.constant(1.5), fc.boolean(), fc.constant([1]), fc.constant({})),
  number: fc.oneof(fc.constant('abc'), fc.boolean(), fc.constant([1]), fc.constant({})),
  boolean: fc.oneof(fc.constant('maybe'), fc.integer({ min: 2, max: 9 }), fc.constant([]), fc.constant({})),
  array: fc.oneof(fc.constant('x'), fc.integer(), fc.constant({ 0: 'x' })),
  object: fc.oneof(fc.constant('x'), fc.integer(), fc.constant([]), fc.boolean()),
};

/**
 * Values the schema certainly rejects (wrong type, out of range, too long or short, outside the
 * enum, a required property missing or broken), or null when the schema rejects nothing this
 * generator knows how to produce (e.g. `{}` or a union of strings and arrays).
 */
export function invalidArb(schema: JsonSchema, resolve: Resolver, depth = 0): fc.Arbitrary<unknown> | null {
  const s = deref(schema, resolve);
  const options: fc.Arbitrary<unknown>[] = [];
  const types = typesOf(s);
  if (s.anyOf || s.oneOf || types.length === 0) {
    // Unions: only a type none of the branches admits is certainly wrong.
    const all = new Set((s.anyOf ?? s.oneOf ?? [s]).flatMap((b) => typesOf(deref(b, resolve))));
    if (all.size === 0) return null;
    if (!all.has('object') && !all.has('array')) options.push(fc.constant({ junk: true }), fc.constant([1, 2]));
    return options.length > 0 ? fc.oneof(...options) : null;
  }
  if (!types.includes('null') && !s.nullable && !(s.enum ?? []).includes(null)) options.push(fc.constant(null));
  const primary = types.find((t) => t !== 'null') ?? 'null';
  const wrong = WRONG_TYPES[primary];
  if (wrong) options.push(wrong.filter((v) => !admittedByTypes(v, types)));
  if (s.enum) {
    options.push(
      fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !(s.enum ?? []).includes(v)),
      fc.constant('__not_in_enum__'),
    );
  }
  if (primary === 'string' && !s.enum) {
    if (s.maxLength !== undefined) {
      const max = s.maxLength;
      options.push(fc.integer({ min: max + 1, max: Math.max(max + 1, max * 4) }).map((n) => 'x'.repeat(n)));
    }
    if (s.minLength !== undefined && s.minLength > 0) options.push(fc.constant(''));
    if (s.pattern) {
      const re = new RegExp(s.pattern, 'u');
      const misses = ['\u0000', 'x y', '🙂', '-', '.', ''].filter((v) => !re.test(v));
      if (misses.length > 0) options.push(fc.constantFrom(...misses));
    }
    if (s.format === 'uuid')
      options.push(fc.constantFrom('not-a-uuid', '1234', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'));
    if (s.format === 'email') options.push(fc.constantFrom('no-at-sign', '@', 'a@', 'a b@c d'));
  }
  if (primary === 'integer' || primary === 'number') {
    if (s.minimum !== undefined) options.push(fc.constant(s.minimum - 1));
    if (s.maximum !== undefined) options.push(fc.constant(s.maximum + 1));
    if (s.exclusiveMinimum !== undefined) options.push(fc.constant(s.exclusiveMinimum));
    if (s.exclusiveMaximum !== undefined) options.push(fc.constant(s.exclusiveMaximum));
    if (primary === 'integer') options.push(fc.constant(2.5));
  }
  if (primary === 'array') {
    if (s.maxItems !== undefined) options.push(fc.constant(Array.from({ length: s.maxItems + 1 }, () => 'x')));
    const bad = s.items && depth < 4 ? invalidArb(s.items, resolve, depth + 1) : null;
    if (bad) options.push(bad.map((v) => [v]));
  }
  if (primary === 'object') {
    const props = s.properties ?? {};
    const required = (s.required ?? []).filter((k) => k in props);
    if (required.length > 0 || Object.keys(props).length > 0) {
      const base = validArb(s, resolve, depth + 1) as fc.Arbitrary<Record<string, unknown>>;
      for (const k of required) {
        options.push(
          base.map((o) => {
            const { [k]: _drop, ...rest } = o;
            return rest;
          }),
        );
      }
      for (const [k, v] of Object.entries(props)) {
        const bad = depth < 4 ? invalidArb(v, resolve, depth + 1) : null;
        if (bad) options.push(fc.tuple(base, bad).map(([o, b]) => ({ ...o, [k]: b })));
      }
    }
    if (s.additionalProperties === false) {
      options.push(
        (validArb(s, resolve, depth + 1) as fc.Arbitrary<Record<string, unknown>>).map((o) => ({
          ...o,
          __junk__: 1,
        })),
      );
    }
  }
  return options.length > 0 ? fc.oneof(...options) : null;
}

function admittedByTypes(v: unknown, types: string[]): boolean {
  if (v === null) return types.includes('null');
  if (Array.isArray(v)) return types.includes('array');
  switch (typeof v) {
    case 'string':
      return types.includes('string');
    case 'boolean':
      return types.includes('boolean');
    case 'number':
      return types.includes('number') || (types.includes('integer') && Number.isInteger(v));
    case 'object':
      return types.includes('object');
    default:
      return false;
  }
}
