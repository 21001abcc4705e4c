/**
 * The key of the brand every core error carries. `Symbol.for` gives one symbol per JavaScript
 * realm, shared by every copy of core loaded into it: the ESM build, the CommonJS build, two
 * versions side by side in `node_modules`. The brand's value is the class name.
 */
const BRAND = /* @__PURE__ */ Symbol.for('@marketlens/core/error');

/** Marks `error` as an instance of the core error class `name`, across every loaded copy of core. @internal */
export function brand(error: Error, name: string): void {
  Object.defineProperty(error, BRAND, { value: name, enumerable: false });
}

/**
 * `value instanceof ctor`, where `ctor` is the core error class `name`: true for an error of that
 * class made by any copy of core (ESM or CommonJS build), so `instanceof` does not depend on which
 * build threw it. A subclass a user derives from a core error keeps the ordinary prototype test.
 * @internal
 */
export function isBranded(
  ctor: abstract new (...args: never[]) => unknown,
  base: unknown,
  value: unknown,
  name: string,
): boolean {
  if (ctor !== base) return Function.prototype[Symbol.hasInstance].call(ctor, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === name;
}
