import type { Duplex } from 'node:stream';
import { errorBody } from '@marketlens/contract';
import { ERROR_CODES } from './app-error.js';

/** The parser error codes Node answers itself, with the status and code we answer them with. */
function answerOf(code: string | undefined): { status: number; reason: string; code: string | number } | null {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, reason: 'Request Header Fields Too Large', code: ERROR_CODES.HeadersTooLarge.code };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'Payload Too Large', code: ERROR_CODES.PayloadTooLarge.code };
    case 'ECONNRESET':
      return null;
    default:
      return { status: 400, reason: 'Bad Request', code: ERROR_CODES.InvalidRequest.code };
  }
}

/**
 * The HTTP server's `clientError` listener: a request Node's parser refuses (headers too large,
 * malformed) is answered with an `ErrorResponse` body instead of Node's empty one, then the
 * connection is closed. A socket already answering, or no longer writable, is just closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const answer = answerOf(err.code);
  const busy = (socket as Duplex & { _httpMessage?: unknown })._httpMessage;
  if (answer === null || !socket.writable || (busy !== undefined && busy !== null)) {
    socket.destroy();
    return;
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    // As Node answers it: the client sent too little to be told anything more.
    socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
    return;
  }
  const body = JSON.stringify(errorBody(answer.code, answer.reason));
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
