/**
 * Tool errors carry the REST error code: a client branches on `code` whichever
 * surface it reads. A failure is answered as an MCP tool result with `isError: true`, the code and
 * message as structured content, and the same as text for a model.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A code of the REST `ErrorResponse` table: numeric (1, 1004, 1005) or a stable name. */
export type ErrorCode = number | string;

/** Code 1 (`GeneralError`): the failure is not one the service describes; its details stay in the server. */
export const GENERAL_ERROR = 1;

/** A failure a `Backend` (or a tool) reports on purpose, with its REST code. */
export class ToolError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
  }
}

/** Whether `err` is an error with a REST code (a `ToolError`, the server's `AppError`, ...). */
export function isCodedError(err: unknown): err is Error & { code: ErrorCode } {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'number' || (typeof code === 'string' && code.length > 0);
}

/** The tool error result of `err`; an error without a code becomes code 1 with a fixed message. */
export function toolErrorResult(err: unknown): CallToolResult {
  const coded = isCodedError(err);
  const code = coded ? err.code : GENERAL_ERROR;
  const message = coded ? err.message : 'Internal error';
  return {
    isError: true,
    structuredContent: { code, message },
    content: [{ type: 'text', text: `Error ${code}: ${message}` }],
  };
}
