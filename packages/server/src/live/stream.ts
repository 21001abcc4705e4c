/**
 * One client's stream: an SSE body whose queue is bounded in bytes. Frames are written as they
 * are made (the same bytes for every stream); when the client reads slower than events arrive and
 * more than the buffer is waiting, the stream is ended with an error, which closes the connection,
 * instead of holding the backlog without bound.
 *
 * Under @hono/node-server the route hands the stream its Node response: once the response's
 * headers are out, each frame is written to it directly (one `write`, which Node corks with the
 * other writes of the same tick), not through the web stream's queue, its read promise and the
 * adapter's copy loop; the web stream then only carries the end (or the error) of the body. Under
 * `app.request` (no Node response) every frame goes through the web stream.
 */
import type { LiveEvent, LiveSink } from './hub.js';

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');
const CRLF = encoder.encode('\r\n');

/** Why a stream ended, for its owner's bookkeeping. */
export type StreamEnd = 'client' | 'slow' | 'error' | 'shutdown';

/** The part of Node's `ServerResponse` a stream writes to directly. */
export interface NodeOutput {
  readonly headersSent: boolean;
  readonly destroyed: boolean;
  /** Bytes written and not yet taken by the connection (the response's and its socket's). */
  readonly writableLength: number;
  write(chunk: Uint8Array): boolean;
  writeHead(...args: never[]): unknown;
  /** The connection, while the response is on it. */
  readonly socket: { write(chunk: Uint8Array): boolean; readonly destroyed: boolean } | null;
}

/** Node's own fields of a `ServerResponse` that say its bytes may go to its socket as they are. */
interface OutgoingInternals {
  _headerSent?: boolean;
  chunkedEncoding?: boolean;
  outputData?: unknown[];
}

/** The response a socket is serving (Node's field). */
interface SocketInternals {
  _httpMessage?: unknown;
}

/**
 * A frame as one HTTP/1.1 chunk (size line, the frame, CRLF), made once per frame and kept while
 * the frame is: every stream of a fan-out writes the same bytes to its socket in one call.
 */
const chunks = new WeakMap<Uint8Array, Uint8Array>();
function chunkOf(frame: Uint8Array): Uint8Array {
  let chunk = chunks.get(frame);
  if (chunk === undefined) {
    const head = encoder.encode(`${frame.byteLength.toString(16)}\r\n`);
    chunk = new Uint8Array(head.byteLength + frame.byteLength + 2);
    chunk.set(head);
    chunk.set(frame, head.byteLength);
    chunk.set(CRLF, head.byteLength + frame.byteLength);
    chunks.set(frame, chunk);
  }
  return chunk;
}

const SLOW = 'stream buffer exceeded: the client reads too slowly';

/** A live stream: the response body and what the hub delivers into it. */
export class SseStream implements LiveSink {
  readonly body: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  #open = true;
  readonly #onEnd: (why: StreamEnd) => void;
  readonly #bufferBytes: number;
  /** The Node response written to directly; null: every frame goes through {@link body}. */
  #output: NodeOutput | null = null;
  /** Frames made before the Node response's headers went out, written right after them. */
  #early: Uint8Array[] | null = null;
  #earlyBytes = 0;

  /**
   * `bufferBytes` bounds the bytes written and not yet taken by the connection; `onEnd` runs once,
   * whatever ends the stream (the client going away, a slow client, an error event, shutdown).
   * With `output` (the Node response of the request) frames are written to it directly once its
   * headers are out.
   */
  constructor(bufferBytes: number, onEnd: (why: StreamEnd) => void, output?: NodeOutput) {
    this.#onEnd = onEnd;
    this.#bufferBytes = bufferBytes;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end('client'),
      },
      { highWaterMark: bufferBytes, size: (chunk) => chunk.byteLength },
    );
    if (output !== undefined && !output.headersSent) this.#direct(output);
  }

  /** True until the stream ended. */
  get open(): boolean {
    return this.#open;
  }

  /** Sends raw bytes; a stream over its buffer is ended as slow. */
  write(bytes: Uint8Array): void {
    const controller = this.#controller;
    if (!this.#open || controller === null) return;
    const output = this.#output;
    if (output !== null) {
      if (this.#early !== null) {
        this.#early.push(bytes);
        this.#earlyBytes += bytes.byteLength;
        if (this.#earlyBytes > this.#bufferBytes) this.#slow(controller);
        return;
      }
      // A response closed under the stream: the body's cancel follows and ends it.
      if (output.destroyed) return;
      this.#send(output, bytes);
      if (output.writableLength > this.#bufferBytes) this.#slow(controller);
      return;
    }
    controller.enqueue(bytes);
    if ((controller.desiredSize ?? 0) < 0) this.#slow(controller);
  }

  /** The hub's delivery: the event's frame. */
  deliver(event: LiveEvent): void {
    this.write(event.frame);
  }

  /** A comment line, so that proxies see traffic on an idle stream. */
  heartbeat(): void {
    this.write(HEARTBEAT);
  }

  /** Sends a last frame (the `error` event) and closes the stream. */
  finish(frame?: Uint8Array, why: StreamEnd = 'error'): void {
    const controller = this.#controller;
    if (!this.#open || controller === null) return;
    if (this.#early !== null) {
      // The headers are not out yet: the frames go through the body, before its end.
      for (const early of this.#early) controller.enqueue(early);
      this.#early = null;
      this.#output = null;
    }
    if (frame !== undefined) {
      if (this.#output === null) controller.enqueue(frame);
      else if (!this.#output.destroyed) this.#send(this.#output, frame);
    }
    controller.close();
    this.#end(why);
  }

  /**
   * Writes to `output` directly from its headers on: the frames made until then are held and
   * written right after the adapter writes the headers (it writes nothing of the body itself,
   * since the web stream stays empty until its end).
   */
  #direct(output: NodeOutput): void {
    this.#output = output;
    this.#early = [];
    const writeHead = output.writeHead;
    const own = Object.getOwnPropertyDescriptor(output, 'writeHead');
    const patched = (...args: never[]) => {
      // The response's own method again: a later writeHead (none is expected) is Node's.
      if (own === undefined) delete (output as { writeHead?: unknown }).writeHead;
      else Object.defineProperty(output, 'writeHead', own);
      const result = writeHead.apply(output, args);
      const early = this.#early ?? [];
      this.#early = null;
      this.#earlyBytes = 0;
      if (this.#open && !output.destroyed) {
        for (const bytes of early) output.write(bytes);
        const controller = this.#controller;
        if (controller !== null && output.writableLength > this.#bufferBytes) this.#slow(controller);
      }
      return result;
    };
    Object.defineProperty(output, 'writeHead', { value: patched, configurable: true, writable: true });
  }

  /**
   * One frame to the Node response: once its headers are on the socket and nothing of it waits in
   * the response's own buffer, the frame's HTTP chunk (made once, shared by every stream) goes to
   * the socket in one write, which is what `write` would send in three (the chunk's size line, the
   * frame, CRLF) corked until the next tick; otherwise (before that, or a response that is not
   * chunked) through `write`.
   */
  #send(output: NodeOutput, frame: Uint8Array): void {
    const node = output as NodeOutput & OutgoingInternals;
    const socket = output.socket;
    if (
      socket !== null &&
      !socket.destroyed &&
      (socket as SocketInternals)._httpMessage === output &&
      node._headerSent === true &&
      node.chunkedEncoding === true &&
      node.outputData?.length === 0
    ) {
      socket.write(chunkOf(frame));
    } else {
      output.write(frame);
    }
  }

  #slow(controller: ReadableStreamDefaultController<Uint8Array>): void {
    controller.error(new Error(SLOW));
    this.#end('slow');
  }

  #end(why: StreamEnd): void {
    if (!this.#open) return;
    this.#open = false;
    this.#early = null;
    this.#onEnd(why);
  }
}
