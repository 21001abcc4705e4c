/**
 * One piece of what an app keeps for its life (a cache, the venues it opened, work in flight),
 * declared by the module that owns it: `create` makes the app's value the first time it is asked for.
 */
export interface StateKey<T> {
  readonly name: string;
  readonly create: () => T;
}

/** A key for {@link stateOf}: its identity is the key, `name` is for debugging. */
export const stateKey = <T>(name: string, create: () => T): StateKey<T> => ({ name, create });

/**
 * What one app keeps besides its storage, by key: made by the composition root with the app's
 * deps (or on first use), so two apps in one process share none of it and no module keeps any.
 */
export class AppState {
  readonly #held = new Map<StateKey<unknown>, unknown>();

  get<T>(key: StateKey<T>): T {
    if (this.#held.has(key)) return this.#held.get(key) as T;
    const value = key.create();
    this.#held.set(key, value);
    return value;
  }
}

/** The value of `key` in the app whose deps these are. */
export function stateOf<T>(deps: { state?: AppState }, key: StateKey<T>): T {
  deps.state ??= new AppState();
  return deps.state.get(key);
}
