/**
 * A fixed-size ring buffer of the last `size` values with a one-step undo, which is what
 * a streaming indicator needs to `replace` its still-open last candle.
 */
export class Window {
  readonly size: number;
  private readonly buf: Float64Array;
  private head = 0;
  private filled = 0;
  private lastEvicted = Number.NaN;
  private lastHead = 0;
  private lastFilled = 0;

  constructor(size: number) {
    this.size = size;
    this.buf = new Float64Array(size);
  }

  /** Number of values held, at most `size`. */
  get length(): number {
    return this.filled;
  }

  /** Appends a value; returns the evicted oldest value, or NaN while filling. */
  push(x: number): number {
    this.lastHead = this.head;
    this.lastFilled = this.filled;
    const evicted = this.filled === this.size ? this.buf[this.head] : Number.NaN;
    this.lastEvicted = evicted;
    this.buf[this.head] = x;
    this.head = this.head + 1 === this.size ? 0 : this.head + 1;
    if (this.filled < this.size) this.filled++;
    return evicted;
  }

  /** Undoes the last push (only one level). */
  undo(): void {
    this.head = this.lastHead;
    this.filled = this.lastFilled;
    this.buf[this.head] = this.lastEvicted;
  }

  /** The i-th value counting from the oldest held (0) to the newest (length - 1). */
  at(i: number): number {
    const start = this.filled === this.size ? this.head : 0;
    let j = start + i;
    if (j >= this.size) j -= this.size;
    return this.buf[j];
  }

  /** The newest value. */
  last(): number {
    return this.buf[this.head === 0 ? this.size - 1 : this.head - 1];
  }
}
