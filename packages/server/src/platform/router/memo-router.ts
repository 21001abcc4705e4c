import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths remembered in all, across methods (a bound against random-path floods). */
export const MEMO_ROUTER_MAX_PATHS = 2048;
/** Longer paths are not remembered (real ones are far shorter), so memory stays small and bounded. */
export const MEMO_ROUTER_MAX_PATH_LENGTH = 512;

/**
 * hono's own router (its SmartRouter: RegExpRouter, else TrieRouter) with the answer for each
 * recently seen request path remembered.
 *
 * Why: the contract has a static segment next to a parameter at the same place
 * (`/v1/promotions/volume` beside `/v1/promotions/{connection_id}`, `/v2/positions/manual/*`
 * beside `/v2/positions/{position_id}/analysis`), which hono's RegExpRouter cannot express, so
 * the SmartRouter settles on the TrieRouter for the whole app: about 1 us per match on a short
 * static path and 6-7 us on `/v2/analysis/{asset}`, where RegExpRouter takes 0.02-0.4 us. A
 * remembered answer is one Map lookup. The answer for a path is a pure function of the routes, so
 * it can be shared; hono reads match results and never writes them (its RegExpRouter shares the
 * answers of static paths the same way). Adding a route forgets everything remembered.
 *
 * Bounded: at most {@link MEMO_ROUTER_MAX_PATHS} paths in all, none longer than
 * {@link MEMO_ROUTER_MAX_PATH_LENGTH}; when full, a new path replaces the oldest of its method (a
 * method with none remembered is answered without remembering). A flood of distinct paths (a 404
 * scan) costs a Map insert and delete each and keeps memory flat, under about a megabyte.
 */
export class MemoRouter<T> implements Router<T> {
  readonly #inner: Router<T>;
  readonly #max: number;
  #byMethod = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  constructor(
    inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] }),
    max = MEMO_ROUTER_MAX_PATHS,
  ) {
    this.#inner = inner;
    this.#max = max;
  }

  /** `MemoRouter` around the inner router's name (hono's SmartRouter names the router it settled on). */
  get name(): string {
    return `MemoRouter + ${this.#inner.name}`;
  }

  add(method: string, path: string, handler: T): void {
    this.#inner.add(method, path, handler);
    this.#byMethod = new Map();
    this.#size = 0;
  }

  match(method: string, path: string): Result<T> {
    let memo = this.#byMethod.get(method);
    if (memo === undefined) {
      memo = new Map();
      this.#byMethod.set(method, memo);
    }
    let result = memo.get(path);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      if (path.length > MEMO_ROUTER_MAX_PATH_LENGTH) return result;
      if (this.#size >= this.#max) {
        const oldest = memo.keys().next();
        if (oldest.done) return result;
        memo.delete(oldest.value);
        this.#size--;
      }
      memo.set(path, result);
      this.#size++;
    }
    return result;
  }
}
