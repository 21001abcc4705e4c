/**
 * Serializing by a schema's field list: a wire object holds the fields its schema publishes, in
 * the schema's order, and nothing else, so a serializer that only passes fields through names none
 * of them again.
 */

/** The names of an object schema's fields, in the schema's order. */
export function fieldsOf(schema: { shape: object }): readonly string[] {
  return Object.keys(schema.shape);
}

/** `source`'s values of `fields` (see {@link fieldsOf}), in that order, as a new object. */
export function pickFields<T extends object>(fields: readonly string[], source: T): T {
  const out: Record<string, unknown> = {};
  const from = source as Record<string, unknown>;
  for (const name of fields) out[name] = from[name];
  return out as T;
}
