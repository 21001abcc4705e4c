/**
 * One client's stream: an SSE body whose queue is bounded in bytes. Frames are enqueued as they
 * are made (the same bytes for every stream); when the client reads slower than events arrive and
 * more than the buffer is waiting, the stream is ended with an error, which closes the connection,
 * instead of holding the backlog without bound.
 */
import type { LiveEvent, LiveSink } from './hub.js';

const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');

/** Why a stream ended, for its owner's bookkeeping. */
export type StreamEnd = 'client' | 'slow' | 'error' | 'shutdown';

/** A live stream: the response body and what the hub delivers into it. */
export class SseStream implements LiveSink {
  readonly body: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  #open = true;
  readonly #onEnd: (why: StreamEnd) => void;

  /**
   * `bufferBytes` bounds the bytes enqueued and not yet taken by the connection; `onEnd` runs once,
   * whatever ends the stream (the client going away, a slow client, an error event, shutdown).
   */
  constructor(bufferBytes: number, onEnd: (why: StreamEnd) => void) {
    this.#onEnd = onEnd;
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#end('client'),
      },
      { highWaterMark: bufferBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** True until the stream ended. */
  get open(): boolean {
    return this.#open;
  }

  /** Sends raw bytes; a stream over its buffer is ended as slow. */
  write(bytes: Uint8Array): void {
    const controller = this.#controller;
    if (!this.#open || controller === null) return;
    controller.enqueue(bytes);
    if ((controller.desiredSize ?? 0) < 0) {
      controller.error(new Error('stream buffer exceeded: the client reads too slowly'));
      this.#end('slow');
    }
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
    if (frame !== undefined) controller.enqueue(frame);
    controller.close();
    this.#end(why);
  }

  #end(why: StreamEnd): void {
    if (!this.#open) return;
    this.#open = false;
    this.#onEnd(why);
  }
}
