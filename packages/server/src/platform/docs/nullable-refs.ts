/**
 * The generator writes a nullable component reference as `allOf: [{ $ref }, { type: [object, null] }]`,
 * which no validator accepts `null` for (the referenced schema is an object). OpenAPI 3.1 says it
 * plainly as `anyOf: [{ $ref }, { type: 'null' }]`; this rewrites every such place of a document.
 */

type Json = unknown;

function isNullableRef(node: Record<string, Json>): boolean {
  const all = node.allOf;
  if (!Array.isArray(all) || all.length !== 2) return false;
  const [ref, rest] = all as [Record<string, Json>, Record<string, Json>];
  if (typeof ref?.$ref !== 'string' || Object.keys(ref).length !== 1) return false;
  const type = rest?.type;
  return (
    Array.isArray(type) && type.includes('null') && Object.keys(rest).every((k) => k === 'type' || k === 'description')
  );
}

/** `doc` with every nullable `$ref` written as `anyOf` with `null` (in place; returns `doc`). */
export function fixNullableRefs<T>(doc: T): T {
  const visit = (node: Json): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const obj = node as Record<string, Json>;
    if (isNullableRef(obj)) {
      const [ref, rest] = obj.allOf as [Json, Record<string, Json>];
      delete obj.allOf;
      obj.anyOf = [ref, { type: 'null' }];
      if (typeof rest.description === 'string' && obj.description === undefined) obj.description = rest.description;
    }
    for (const value of Object.values(obj)) visit(value);
  };
  visit(doc);
  return doc;
}
