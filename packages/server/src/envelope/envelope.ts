import { z } from '@hono/zod-openapi';

/** The success code of the envelope; failures carry a code of the error table instead. */
export const SUCCESS_CODE = 0;

/** `AppCode`: numeric codes of the contract, string codes of ours. */
export const AppCodeSchema = z
  .union([z.number().int(), z.string()])
  .openapi('AppCode', { description: 'Result code: 0 on success, a stable error code on failure.' });

/** The success envelope of section 2.1 around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T, name?: string) {
  const schema = z.object({
    code: AppCodeSchema,
    success: z.boolean(),
    data,
    message: z.string().nullable().optional(),
  });
  return name ? schema.openapi(name) : schema;
}

export const ErrorResponseSchema = z
  .object({
    success: z.literal(false),
    code: AppCodeSchema,
    message: z.string().openapi({ description: 'English text for logs; never branch on it.' }),
  })
  .openapi('ErrorResponse');

export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

export interface Envelope<T> {
  code: typeof SUCCESS_CODE;
  success: true;
  data: T;
  message: string | null;
}

/** Wraps a payload in the success envelope. */
export function ok<T>(data: T, message: string | null = null): Envelope<T> {
  return { code: SUCCESS_CODE, success: true, data, message };
}

export function errorBody(code: number | string, message: string): ErrorResponse {
  return { success: false, code, message };
}
