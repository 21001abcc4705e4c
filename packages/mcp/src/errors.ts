/**
 * Tool errors carry the REST error code: a client branches on `code` whichever
 * surface it reads. A failure is answered as an MCP tool result with `isError: true`, the code and
 * message as structured content, and the same as text for a model.
 */
import { ERROR_CODES } from '@marketlens/contract';
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

/** JSON-RPC codes the protocol errors of resources, prompts and completions are answered with. */
export const JSONRPC_INVALID_PARAMS = -32602;
export const JSONRPC_INTERNAL_ERROR = -32603;
/** MCP's "Resource not found" (resources/read, resources/subscribe of a URI naming nothing). */
export const JSONRPC_RESOURCE_NOT_FOUND = -32002;

const STATUS_OF = new Map<ErrorCode, number>(Object.values(ERROR_CODES).map((row) => [row.code, row.status]));

/** A JSON-RPC error the SDK answers with as given: `code`, `message` and `data`. */
export interface ProtocolError extends Error {
  code: number;
  data: { code: ErrorCode; message: string };
}

/**
 * The JSON-RPC error of a failure outside a tool call (reading a resource, getting a prompt,
 * subscribing): `data` is `{ code, message }` with the REST error code, as a tool error's structured
 * content. The JSON-RPC code says who can act on it: a resource that names nothing (REST 404, or an
 * unknown asset when `notFound` is set) is -32002, a failure of the service (code 1, a 5xx) -32603,
 * and anything the request can change (bad input, a gate, a cap, the rate limit) -32602. Not the
 * SDK's `McpError`, whose message already carries an `MCP error -32602:` prefix a client adds again.
 */
export function protocolErrorOf(err: unknown, notFound = false): ProtocolError {
  const coded = isCodedError(err);
  const code = coded ? err.code : GENERAL_ERROR;
  const message = coded ? err.message : 'Internal error';
  const status = STATUS_OF.get(code) ?? (coded ? 400 : 500);
  const rpc =
    status >= 500
      ? JSONRPC_INTERNAL_ERROR
      : status === 404 || (notFound && code === 'UnknownAsset')
        ? JSONRPC_RESOURCE_NOT_FOUND
        : JSONRPC_INVALID_PARAMS;
  return Object.assign(new Error(message), { code: rpc, data: { code, message } });
}
