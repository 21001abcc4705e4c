import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OPENAPI_PATH } from '../../src/app.js';
import { ERROR_CODES } from '../../src/platform/errors/app-error.js';
import type { JsonSchema } from './schema-arbitrary.js';

/**
 * The served OpenAPI document as the reliability tests read it: every operation with its
 * parameters, body and responses, and ajv validators compiled by JSON pointer into the
 * document (so `#/components/...` references resolve as they do for a client).
 */
export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
  example?: unknown;
}

export interface DocOperation {
  method: string;
  path: string;
  operationId: string;
  security: Record<string, string[]>[];
  /** Marked deprecated in the document. */
  deprecated: boolean;
  parameters: Parameter[];
  /** The JSON body schema and whether the body is required; null when the operation takes none. */
  body: { schema: JsonSchema; required: boolean } | null;
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

export interface ServedDocument {
  raw: { paths: Record<string, Record<string, unknown>>; components: Record<string, unknown> };
  operations: DocOperation[];
  ajv: Ajv2020;
  /** A validator for the schema at this JSON pointer of the document (cached). */
  validator(pointerParts: string[]): ValidateFunction;
  /** Problems with a response of `op` (empty when it is what the document and the error table say). */
  check(op: DocOperation, status: number, contentType: string, text: string): string[];
}

const DOC_ID = 'https://marketlens.local/openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const pointer = (parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Status of every code of the error table (the one table, read at run time so new codes count). */
export function errorCodeStatuses(): Map<string, number> {
  return new Map(Object.values(ERROR_CODES).map((e) => [String(e.code), e.status]));
}

/** Reads the document an app serves (`request` is the harness's or a real server's fetch). */
export async function servedDocument(request: (path: string) => Promise<Response>): Promise<ServedDocument> {
  const raw = (await (await request(OPENAPI_PATH)).json()) as ServedDocument['raw'];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ ...raw, $id: DOC_ID });
  const cache = new Map<string, ValidateFunction>();
  const validator = (parts: string[]) => {
    const ref = pointer(parts);
    let v = cache.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: `${DOC_ID}#/${ref}` });
      cache.set(ref, v);
    }
    return v;
  };
  const operations: DocOperation[] = [];
  for (const [path, item] of Object.entries(raw.paths)) {
    for (const method of METHODS) {
      const op = item[method] as
        | {
            operationId?: string;
            deprecated?: boolean;
            security?: Record<string, string[]>[];
            parameters?: Parameter[];
            requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
            responses?: DocOperation['responses'];
          }
        | undefined;
      if (!op) continue;
      const json = op.requestBody?.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        security: op.security ?? [],
        deprecated: op.deprecated === true,
        parameters: op.parameters ?? [],
        body: json ? { schema: json, required: op.requestBody?.required === true } : null,
        responses: op.responses ?? {},
      });
    }
  }
  const codes = errorCodeStatuses();
  const check = (op: DocOperation, status: number, contentType: string, text: string): string[] => {
    const problems: string[] = [];
    if (status >= 500) problems.push(`status ${status}`);
    if (!(String(status) in op.responses)) problems.push(`status ${status} is not documented for the operation`);
    if (contentType.startsWith('text/event-stream') && status >= 200 && status < 300) {
      // A stream (read up to its first event, see `bodyText`): that event as the document's event schema.
      const fields: Record<string, string> = {};
      for (const line of text.split('\n\n')[0].split('\n')) {
        const m = /^(id|event|data): (.*)$/.exec(line);
        if (m !== null) fields[m[1]] = m[2];
      }
      let event: unknown;
      try {
        event = { ...fields, data: JSON.parse(fields.data ?? '') };
      } catch {
        problems.push('the first event of the stream carries no JSON data');
        return problems;
      }
      const v = validator([
        'paths',
        op.path,
        op.method.toLowerCase(),
        'responses',
        String(status),
        'content',
        contentType.split(';')[0],
        'schema',
      ]);
      if (!v(event)) problems.push(`event schema: ${ajv.errorsText(v.errors, { separator: '; ' }).slice(0, 400)}`);
      return problems;
    }
    if (!contentType.includes('application/json')) {
      // Every REST answer of this service is JSON (envelope or ErrorResponse), or a stream's events.
      problems.push(`content-type ${contentType || '(none)'}`);
      return problems;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      problems.push('body is not JSON');
      return problems;
    }
    if (/\n\s+at /.test(text)) problems.push('body carries a stack trace');
    if (status >= 400) {
      const v = validator(['components', 'schemas', 'ErrorResponse']);
      if (!v(body)) problems.push(`not an ErrorResponse: ${ajv.errorsText(v.errors)}`);
      const code = String((body as { code?: unknown }).code);
      const expected = codes.get(code);
      if (expected === undefined) problems.push(`code ${code} is not in ERROR_CODES`);
      else if (expected !== status) problems.push(`code ${code} belongs to ${expected}, answered ${status}`);
    } else if (status >= 200 && status < 300) {
      const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
      if (schema) {
        const v = validator([
          'paths',
          op.path,
          op.method.toLowerCase(),
          'responses',
          String(status),
          'content',
          'application/json',
          'schema',
        ]);
        if (!v(body)) problems.push(`response schema: ${ajv.errorsText(v.errors, { separator: '; ' }).slice(0, 400)}`);
      }
    }
    return problems;
  };
  return { raw, operations, ajv, validator, check };
}

/** Whether an operation's declared security admits a credential kind (`none`: no credential). */
export function admits(op: { security: Record<string, string[]>[] }, kind: 'none' | 'session' | 'api_key'): boolean {
  if (op.security.length === 0) return true;
  if (kind === 'none') return op.security.some((s) => Object.keys(s).length === 0);
  return op.security.some((s) => kind in s);
}
