/**
 * The envelope every REST answer is wrapped in: `{ code: 0, success: true, data, message }` on
 * success, an `ErrorResponse` (`{ success: false, code, message }`) on failure.
 */
import { z } from 'zod';
import { ERROR_CODES } from './errors.js';

/** The success code of the envelope; failures carry a code of the error table instead. */
export const SUCCESS_CODE = 0;

const codes = Object.values(ERROR_CODES).map((row) => row.code);
const numericCodes = codes.filter((c): c is Extract<(typeof codes)[number], number> => typeof c === 'number');
const numericCode = z.union(numericCodes.map((c) => z.literal(c)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]]);
const namedCodes = codes.filter((c): c is Extract<(typeof codes)[number], string> => typeof c === 'string');

/** The code of a failure: one of the error table's, numeric or named (see `ERROR_CODES`). */
export const ErrorCodeSchema = z.union([numericCode, z.enum(namedCodes as [string, ...string[]])]).meta({
  id: 'ErrorCode',
  description: `A stable error code: ${Object.entries(ERROR_CODES)
    .map(([name, row]) =>
      typeof row.code === 'number' ? `${row.code} (${name}, ${row.status})` : `${name} (${row.status})`,
    )
    .join(', ')}. The meaning of each is listed in the error table of the documentation.`,
});

/** The envelope's `code`: 0 on success, an error code on failure. */
export const AppCodeSchema = z
  .union([z.literal(SUCCESS_CODE), ErrorCodeSchema])
  .meta({ id: 'AppCode', description: 'Result code: 0 on success, a stable error code on failure.' });

/** The success envelope around `data`, registered under `name` when given. */
export function envelopeOf<T extends z.ZodType>(data: T, name?: string) {
  const schema = z.object({
    code: z.literal(SUCCESS_CODE),
    success: z.literal(true),
    data,
    message: z.string().nullable().optional(),
  });
  return name ? schema.meta({ id: name }) : schema;
}

/** Every failure's body. */
export const ErrorResponseSchema = z
  .object({
    success: z.literal(false),
    code: ErrorCodeSchema,
    message: z.string().meta({ description: 'English text for logs; never branch on it.' }),
  })
  .meta({ id: 'ErrorResponse' });

export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** A success answer. */
export interface Envelope<T> {
  code: typeof SUCCESS_CODE;
  success: true;
  data: T;
  message: string | null;
}

/**
 * Wraps a payload in the success envelope; {@link envelopeOf} is its schema, {@link errorBody} the
 * failure's body.
 * @example
 * ```ts
 * import { ErrorResponseSchema, envelopeOf, errorBody, MarketTypeSchema, ok } from '@marketlens/contract';
 *
 * const body = JSON.stringify(ok('spot')); // {"code":0,"success":true,"data":"spot","message":null}
 * const answer = envelopeOf(MarketTypeSchema).parse(JSON.parse(body));
 * console.log(answer.data); // spot
 * const failure = errorBody(1004, 'The timeframe needs Pro (every timeframe but d1).');
 * console.log(ErrorResponseSchema.safeParse(failure).success); // true
 * console.log(ErrorResponseSchema.safeParse({ ...failure, code: 42 }).success); // false: 42 is no error code
 * ```
 */
export function ok<T>(data: T, message: string | null = null): Envelope<T> {
  return { code: SUCCESS_CODE, success: true, data, message };
}

/** The body of a failure. */
export function errorBody(code: number | string, message: string): ErrorResponse {
  return { success: false, code, message } as ErrorResponse;
}

/** The structured content of an MCP tool error (`isError: true`): the REST code and message. */
export const ToolErrorContentSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string().meta({ description: 'English text for logs; never branch on it.' }),
});
