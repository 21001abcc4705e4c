import type { RouteConfig, RouteHandler, z } from '@hono/zod-openapi';
import { type OperationId, type OperationInput, ok } from '@marketlens/contract';
import type { Handler } from 'hono';
import type { AppEnv } from './deps.js';
import type { ErrorStatus } from './errors/app-error.js';
import { type OperationOf, type OperationOptions, type RunOperation, routesOf, type Serve } from './operation.js';

type RequestParts = NonNullable<RouteConfig['request']>;
type None = Record<never, never>;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: readonly Method[] = ['get', 'post', 'put', 'patch', 'delete'];

/** A row's method and path: one key, the method, whose value is the path (`get: '/v1/devices'`). */
type MethodPath = { [M in Method]: { [N in M]: string } & { [N in Exclude<Method, M>]?: never } }[Method];

/** A failed validation as a row's `hook` reads it (see `payloadHook` of the notifications). */
export type RestHook = (result: {
  success: boolean;
  target: string;
  error?: { issues: { path: PropertyKey[]; message: string; code?: string; params?: unknown }[] };
}) => undefined;

/**
 * What REST adds to a declared operation, the head of its row (see {@link RestRow}):
 * - the method as the key of the path (`get: '/v1/devices'`); `id`, the OpenAPI `operationId`;
 * - `params`, `query`: the schemas of the path and the query; `json`: of a required JSON body;
 *   `request`: any other request part (headers, an optional body), as @hono/zod-openapi takes it;
 * - `ok`: the 200's description, or the description and the name of its envelope component;
 *   `data`: the 200's data where REST answers more than the operation's output (a legacy shape);
 * - `errors`: the failures it adds to those every operation can have;
 * - `cacheControl`: the `cache-control` of its 200; `hook`: what a failed validation answers;
 *   `speculative`: see {@link OperationOptions}.
 */
export type RestBinding = MethodPath & {
  id: string;
  params?: RequestParts['params'];
  query?: RequestParts['query'];
  json?: z.ZodType;
  request?: RequestParts;
  ok: string | readonly [description: string, envelope: string];
  data?: z.ZodType;
  errors?: readonly ErrorStatus[];
  cacheControl?: string;
  hook?: RestHook;
  speculative?: true;
};

/**
 * One REST route of a declared operation, a row of its feature's table (see {@link restTable}):
 * its binding, its summary and its description, the texts as the document shows them. The auth,
 * the 200's schema (the operation's output in the success envelope) and the tag come from the
 * registry and the table. Served by the plain handler unless the table's registration names one
 * of its own (see {@link serveTable}).
 *
 *   'alerts.devices': [
 *     { get: '/v1/devices', id: 'listDevices', ok: 'Devices, newest first' },
 *     'List push devices, inactive ones included',
 *     'Every Web Push subscription of the account; ...',
 *   ],
 */
export type RestRow = readonly [binding: RestBinding, summary: string, description?: string];

type MethodOf<B> = { [M in Method]: B extends { [N in M]: string } ? M : never }[Method];
type Part<B, K extends 'params' | 'query'> = B extends { [N in K]: infer S extends RequestParts[K] }
  ? { [N in K]: S }
  : None;
type Body<B> = B extends { json: infer S extends z.ZodType }
  ? { body: { content: { 'application/json': { schema: S } }; required: true } }
  : None;

/** The request of a row as @hono/zod-openapi types it. */
type RequestOf<B> = Part<B, 'params'> &
  Part<B, 'query'> &
  (B extends { request: infer Q extends RequestParts } ? Q : None) &
  Body<B>;

/** The route declaration a row stands for. */
type RouteOfRow<R> = R extends readonly [infer B, ...unknown[]] ? RouteOfBinding<B> : never;
type RouteOfBinding<B> = {
  method: MethodOf<B>;
  path: string;
  operationId: string;
  summary: string;
  request: RequestOf<B>;
  ok: string | readonly [string, string];
};

/** The operations of a table, by operation id, typed as {@link routesOf} makes them. */
export type RestTable<T> = { readonly [K in keyof T & OperationId]: OperationOf<K, RouteOfRow<T[K]>> };

/** The handlers of the rows of `T` that answer otherwise than the plain handler (see {@link serveTable}). */
export type OwnAnswers<T> = { [K in keyof T]?: T[K] extends RouteConfig ? RouteHandler<T[K], AppEnv> : never };

/** What the plain handler hands to `run`: the validated path, query and JSON body, merged. */
type PlainInput<O> = O extends { request: infer Q }
  ? (Q extends { params: infer P extends z.ZodType } ? z.output<P> : None) &
      (Q extends { query: infer S extends z.ZodType } ? z.output<S> : None) &
      (Q extends { body: { content: { 'application/json': { schema: infer J extends z.ZodType } } } }
        ? z.output<J>
        : None)
  : None;

/** The ids of the rows whose merged input is not their operation's input: they need their own handler. */
type Mismatched<T> = {
  [K in keyof T & OperationId]: PlainInput<T[K]> extends OperationInput<K> ? never : K;
}[keyof T & OperationId];

const CACHE_CONTROL = new WeakMap<object, string>();
const HOOKS = new WeakMap<object, RestHook>();

/**
 * A feature's REST bindings, all under the OpenAPI tag `tag`: one row a route, keyed by the
 * operation it serves, in the order they are registered (see {@link RestRow}). Each row becomes
 * the declaration {@link routesOf} makes, so the document is the one the declaration gives.
 */
export function restTable<const T extends { [K in OperationId]?: RestRow }>(tag: string, rows: T): RestTable<T> {
  const route = routesOf(tag);
  const table: Record<string, object> = {};
  for (const [id, [binding, summary, description]] of Object.entries(rows) as [OperationId, RestRow][]) {
    const { id: operationId, params, query, json, request, ok: okText, data, errors } = binding;
    const method = METHODS.find((m) => binding[m] !== undefined);
    if (method === undefined) throw new Error(`${id}: a row names its method`);
    const parts = {
      ...(params === undefined ? {} : { params }),
      ...(query === undefined ? {} : { query }),
      ...request,
      ...(json === undefined ? {} : { body: { content: { 'application/json': { schema: json } }, required: true } }),
    };
    const op = route(
      id,
      {
        method,
        path: binding[method] as string,
        operationId,
        summary,
        ...(description === undefined ? {} : { description }),
        ...(Object.keys(parts).length === 0 ? {} : { request: parts }),
        ok: okText,
        ...(errors === undefined ? {} : { errors }),
        ...(data === undefined ? {} : { data }),
      },
      binding.speculative === true ? { speculative: true } : {},
    );
    if (binding.cacheControl !== undefined) CACHE_CONTROL.set(op, binding.cacheControl);
    if (binding.hook !== undefined) HOOKS.set(op, binding.hook);
    table[id] = op;
  }
  return table as RestTable<T>;
}

/**
 * The plain handler of the operation `id`: the validated path, query and JSON body merged into
 * its input, `run`, and 200 with the output in the success envelope (with the row's
 * `cache-control`, when it has one).
 */
function plainAnswer(run: RunOperation, id: OperationId, cacheControl: string | undefined): Handler<AppEnv> {
  return async (c) => {
    const req = c.req as unknown as { valid(target: string): object | undefined };
    const input = { ...req.valid('param'), ...req.valid('query'), ...req.valid('json') };
    const output = await run(c, id, input as OperationInput<typeof id>);
    if (cacheControl !== undefined) c.header('cache-control', cacheControl);
    return c.json(ok(output), 200);
  };
}

/**
 * Registers the rows of `table` in their order: each with the handler `own` names for it, else
 * the plain one. A row whose merged input is not its operation's input must have its own handler
 * (the types require it in `own`).
 */
export function serveTable<T extends RestTable<object>>(
  serve: Serve,
  run: RunOperation,
  table: T,
  ...own: [Mismatched<T>] extends [never]
    ? [own?: OwnAnswers<T>]
    : [own: OwnAnswers<T> & Required<Pick<OwnAnswers<T>, Mismatched<T>>>]
): void {
  const answers = (own[0] ?? {}) as Record<string, Handler<AppEnv> | undefined>;
  for (const [id, op] of Object.entries(table) as [OperationId, object][]) {
    const handler = answers[id] ?? plainAnswer(run, id, CACHE_CONTROL.get(op));
    (serve as (op: object, handler: Handler<AppEnv>, hook?: RestHook) => void)(op, handler, HOOKS.get(op));
  }
}
