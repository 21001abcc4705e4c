import { Window } from './window.js';

/**
 * The highest high and lowest low of the last `size` candles, for streaming indicators
 * (Stochastic, Williams %R, Aroon), with a one-step undo for `replace`.
 *
 * Like TA-Lib, the extremes are updated in O(1) and the window is rescanned only when an extreme
 * leaves it. On ties the newest candle wins (TA-Lib `AROON`'s rule), so `highestAt` and
 * `lowestAt` are the input indices (0-based, counting every push) of the most recent extreme.
 * @internal
 */
export class HighLowWindow {
  readonly size: number;
  /** Highest high of the window. */
  highest = 0;
  /** Lowest low of the window. */
  lowest = 0;
  /** Input index of the newest highest high. */
  highestAt = -1;
  /** Input index of the newest lowest low. */
  lowestAt = -1;
  private readonly highs: Window;
  private readonly lows: Window;
  private n = 0;
  private pHighest = 0;
  private pLowest = 0;
  private pHighestAt = -1;
  private pLowestAt = -1;

  constructor(size: number) {
    this.size = size;
    this.highs = new Window(size);
    this.lows = new Window(size);
  }

  /** Appends a candle's high and low. */
  push(high: number, low: number): void {
    this.pHighest = this.highest;
    this.pLowest = this.lowest;
    this.pHighestAt = this.highestAt;
    this.pLowestAt = this.lowestAt;
    this.highs.push(high);
    this.lows.push(low);
    const today = this.n++;
    const trailing = today - this.size + 1;
    if (today === 0 || this.lowestAt < trailing) this.rescanLow(today);
    else if (low <= this.lowest) {
      this.lowest = low;
      this.lowestAt = today;
    }
    if (today === 0 || this.highestAt < trailing) this.rescanHigh(today);
    else if (high >= this.highest) {
      this.highest = high;
      this.highestAt = today;
    }
  }

  /** Undoes the last push (only one level). */
  undo(): void {
    this.highs.undo();
    this.lows.undo();
    this.n--;
    this.highest = this.pHighest;
    this.lowest = this.pLowest;
    this.highestAt = this.pHighestAt;
    this.lowestAt = this.pLowestAt;
  }

  private rescanLow(today: number): void {
    const w = this.lows;
    const first = today - w.length + 1;
    let lowest = w.at(0);
    let at = first;
    for (let j = 1; j < w.length; j++) {
      const v = w.at(j);
      if (v <= lowest) {
        lowest = v;
        at = first + j;
      }
    }
    this.lowest = lowest;
    this.lowestAt = at;
  }

  private rescanHigh(today: number): void {
    const w = this.highs;
    const first = today - w.length + 1;
    let highest = w.at(0);
    let at = first;
    for (let j = 1; j < w.length; j++) {
      const v = w.at(j);
      if (v >= highest) {
        highest = v;
        at = first + j;
      }
    }
    this.highest = highest;
    this.highestAt = at;
  }
}
