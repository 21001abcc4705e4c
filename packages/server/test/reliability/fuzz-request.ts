import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { DocOperation, ServedDocument } from './document.js';
import { invalidArb, type JsonSchema, resolverOf, validArb } from './schema-arbitrary.js';

/**
 * Requests drawn from one operation of the OpenAPI document: valid parameters and bodies from
 * their schemas, and invalid ones (wrong types, out of range, missing required, extra junk, huge
 * strings, unicode, malformed JSON, odd headers, duplicated credentials). Whether a drawn request
 * violates the document is decided by ajv over what is actually sent (parameters coerced from
 * their string form, as a server reads them), not by the generator's intent.
 */

/** Short random texts that do not parse as JSON (for bodies labelled JSON). */
export const notJsonArb: fc.Arbitrary<string> = fc.string({ maxLength: 30 }).filter((s) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});
export interface FuzzRequest {
  url: string;
  init: { method: string; headers: Record<string, string>; body?: string };
  /** Which part was mutated: `valid`, `param`, `body`, `missing`, `malformed` or `noise`. */
  mode: string;
  /** ajv's reasons the request breaks the document (empty: it conforms, as far as ajv can tell). */
  violations: string[];
}

export type Mode = 'valid' | 'param' | 'body' | 'missing' | 'malformed' | 'noise';

const DOC_ID = 'https://marketlens.local/fuzz-openapi.json';

/** Header values a Fetch `Headers` accepts (ByteString, no CR/LF/NUL). */
export function headerSafe(v: string): string {
  return [...v].filter((ch) => /[\x20-\x7e\xa0-\xff]/.test(ch)).join('');
}

function serialize(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)));
  if (typeof v === 'string') return [v];
  if (v !== null && typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

/** Hostile strings: random, unicode, control and injection classics, and huge (up to 70 kB). */
export const junkText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '\u0000', '%00', '../../etc/passwd', "'; DROP TABLE users; --", '{{7*7}}', '<script>'),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'A'.repeat(n)),
);

const appVersion = fc.oneof(
  fc.constantFrom(
    '3.9.29',
    '3.9.30',
    '3.9.25',
    '1.0.0',
    '0.0.1',
    '99.99.99',
    'v4.0',
    '3.9.30-beta.1',
    '3..9',
    '-1.0.0',
  ),
  fc.string({ maxLength: 30 }),
  fc.constant('9'.repeat(400)),
);

/** Headers a client may add, some of them nonsense (every request must still get an ErrorResponse). */
export const headerNoise = fc.record(
  {
    'x-platform': fc.constantFrom('ios', 'android', 'web', 'IOS', ' android ', 'symbian', ''),
    'x-app-version': appVersion,
    'x-locale': fc.oneof(fc.constantFrom('en', 'de-DE', 'zh', 'xx', '*', ''), fc.string({ maxLength: 80 })),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'garbage', '1.1.1.1, 2.2.2.2', '::1', ''),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'nonsense'),
  },
  { requiredKeys: [] },
);

export interface CredentialSet {
  /** Headers of the credential the request runs under. */
  headers: Record<string, string>;
}

/** Builds the request arbitrary of one operation of `doc`. */
export function requestArb(doc: ServedDocument, op: DocOperation): fc.Arbitrary<FuzzRequest> {
  const resolve = resolverOf(doc.raw);
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: 'array' });
  addFormats(ajv);
  ajv.addSchema({ ...doc.raw, $id: DOC_ID });
  const paramValidators = new Map<string, ValidateFunction>();
  op.parameters.forEach((p, i) => {
    if (!p.schema) return;
    const ptr = ['paths', op.path, op.method.toLowerCase(), 'parameters', String(i), 'schema']
      .map((x) => x.replace(/~/g, '~0').replace(/\//g, '~1'))
      .join('/');
    paramValidators.set(`${p.in}:${p.name}`, ajv.compile({ $ref: `${DOC_ID}#/${ptr}` }));
  });
  const bodyValidator = op.body ? doc.validator(bodyPointer(op)) : null;

  const paramArbs = op.parameters.map((p) => {
    const schema: JsonSchema = p.schema ?? {};
    const valid = validArb(withHints(p.name, { ...schema, example: p.example ?? schema.example }), resolve);
    const invalid = invalidArb(schema, resolve);
    return { p, valid, invalid };
  });
  const hasInvalidParam = paramArbs.some((a) => a.invalid !== null);
  const hasRequiredParam = op.parameters.some((p) => p.required && p.in !== 'path');
  const modes: Mode[] = ['valid', 'valid', 'noise'];
  if (hasInvalidParam) modes.push('param', 'param');
  if (op.body) modes.push('body', 'body', 'malformed');
  if (hasRequiredParam || op.body?.required) modes.push('missing');

  return fc.constantFrom(...modes).chain((mode) => {
    const mutated =
      mode === 'param'
        ? fc.constantFrom(...paramArbs.filter((a) => a.invalid !== null).map((a) => a.p.name))
        : fc.constant(null);
    const values = fc.tuple(
      ...paramArbs.map((a) =>
        fc.record({
          include: a.p.required ? fc.constant(true) : fc.boolean(),
          valid: a.valid,
          invalid: a.invalid ?? fc.constant(undefined),
        }),
      ),
    );
    const body = op.body
      ? fc.record({
          valid: validArb(op.body.schema, (ref) => hinted(resolve(ref))),
          invalid: invalidArb(op.body.schema, resolve) ?? fc.constant([]),
          junk: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
          malformed: fc.oneof(
            fc.constantFrom('{', '{"a":', '[1,2', 'nul', '{"email": "a@b.c", "password": }', '\u0000', ''),
            notJsonArb,
          ),
        })
      : fc.constant(null);
    const missing = fc.constantFrom(
      ...[
        ...op.parameters.filter((p) => p.required && p.in !== 'path').map((p) => `param:${p.name}`),
        ...(op.body?.required ? ['body'] : []),
        'none',
      ],
    );
    return fc
      .record({
        mutated,
        values,
        body,
        missing,
        noise: mode === 'noise' ? headerNoise : fc.constant({}),
        contentType:
          mode === 'noise'
            ? fc.constantFrom(
                'application/json',
                'text/plain',
                'application/json; charset=latin1',
                'multipart/form-data',
              )
            : fc.constant('application/json'),
        extraQuery:
          mode === 'noise'
            ? fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), junkText, { maxKeys: 3 })
            : fc.constant({}),
      })
      .map((draw): FuzzRequest => {
        const violations: string[] = [];
        const headers: Record<string, string> = {};
        const query = new URLSearchParams();
        let path = op.path;
        paramArbs.forEach((a, i) => {
          const d = draw.values[i];
          const name = a.p.name;
          if (mode === 'missing' && draw.missing === `param:${name}`) {
            violations.push(`missing required ${a.p.in} parameter ${name}`);
            return;
          }
          if (!d.include) return;
          let value = draw.mutated === name && d.invalid !== undefined ? d.invalid : d.valid;
          let parts = serialize(value);
          if (parts.length === 0 && a.p.in !== 'path') {
            // An empty list sends nothing: the parameter is absent.
            if (a.p.required) violations.push(`missing required ${a.p.in} parameter ${name}`);
            return;
          }
          if (a.p.in === 'path') {
            // An empty or dot segment would route elsewhere (URL normalisation), not test this one.
            const routable = (xs: string[]) => xs.length > 0 && !['', '.', '..'].includes(xs[0]);
            if (!routable(parts)) {
              value = d.valid;
              parts = serialize(value);
              if (!routable(parts)) parts = ['x'];
            }
            path = path.replace(`{${name}}`, encodeURIComponent(parts[0]));
          } else if (a.p.in === 'query') {
            for (const part of parts) query.append(name, part);
          } else if (a.p.in === 'header') {
            parts = [headerSafe(parts.join(',')).trim()];
            headers[name] = parts[0];
          }
          const v = paramValidators.get(`${a.p.in}:${name}`);
          const sent: unknown = a.p.in === 'query' && parts.length > 1 ? parts : parts[0];
          if (v && !v(sent)) {
            violations.push(`${a.p.in} ${name}=${JSON.stringify(sent).slice(0, 60)}: ${ajv.errorsText(v.errors)}`);
          }
        });
        for (const [k, v] of Object.entries(draw.extraQuery)) if (!query.has(k)) query.append(k, String(v));
        let body: string | undefined;
        const b = draw.body;
        if (op.body && b) {
          if (mode === 'missing' && draw.missing === 'body') {
            violations.push('missing required body');
          } else if (mode === 'malformed') {
            body = b.malformed;
            violations.push('malformed JSON');
          } else {
            const value = mode === 'body' ? b.invalid : b.valid;
            // Extra properties: the document does not forbid them (no additionalProperties: false).
            const sent =
              mode === 'noise' && value !== null && typeof value === 'object' && !Array.isArray(value)
                ? { ...b.junk, ...(value as Record<string, unknown>) }
                : value;
            body = JSON.stringify(sent);
            if (bodyValidator && !bodyValidator(sent)) {
              violations.push(`body ${body.slice(0, 80)}: ${doc.ajv.errorsText(bodyValidator.errors)}`);
            }
          }
          if (body !== undefined) headers['content-type'] = draw.contentType;
          // A body whose content type is not JSON is not read as the JSON body the document means.
          if (draw.contentType !== 'application/json' && violations.length > 0) violations.length = 0;
        } else if (mode === 'noise' && op.method !== 'GET') {
          body = '{"junk":true}';
          headers['content-type'] = draw.contentType;
        }
        for (const [k, v] of Object.entries(draw.noise)) headers[k] = headerSafe(String(v));
        const qs = query.toString();
        return {
          url: qs ? `${path}?${qs}` : path,
          init: { method: op.method, headers, ...(body !== undefined ? { body } : {}) },
          mode,
          violations,
        };
      });
  });
}

/**
 * Ids that exist in the harness (the simulated venue's assets and exchange), offered for
 * parameters and properties of these names besides what their schemas allow, so valid draws
 * get past 404s into the operations' logic. Other values still come from the schema.
 */
const KNOWN_VALUES: Record<string, string[]> = {
  asset_id: ['bitcoin', 'ethereum', 'solana'],
  coin_id: ['bitcoin', 'ethereum'],
  asset_ids: ['bitcoin,ethereum'],
  exchange_id: ['marketlens-sim'],
  connection: ['marketlens-sim'],
  connection_id: ['marketlens-sim'],
};

function withHints(name: string, schema: JsonSchema): JsonSchema {
  const known = KNOWN_VALUES[name];
  if (!known || schema.enum || schema.format) return schema;
  return { ...schema, examples: [...(schema.examples ?? []), ...known] };
}

function hinted(schema: JsonSchema): JsonSchema {
  if (!schema.properties) return schema;
  const properties: Record<string, JsonSchema> = {};
  for (const [k, v] of Object.entries(schema.properties)) properties[k] = v.$ref ? v : withHints(k, v);
  return { ...schema, properties };
}

function bodyPointer(op: DocOperation): string[] {
  return ['paths', op.path, op.method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'];
}
