type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const COMPONENT_PREFIX = '#/components/schemas/';
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/**
 * Marks every object a request body may hold `additionalProperties: false`, as the API enforces it (`strictly`, in
 * src/contract/strict.ts): zod's input schemas leave it open, since `z.object` strips what it does not know. Objects
 * that keep their keys (records, loose objects, run input) already state `additionalProperties` and stay as they are;
 * named schemas a body refers to are marked where they are defined.
 */
export function closeRequestObjects(document: Json): Json {
  const components: Json =
    isObject(document.components) && isObject(document.components.schemas) ? document.components.schemas : {};
  const seen = new Set<unknown>();
  const close = (schema: unknown): void => {
    if (!isObject(schema) || seen.has(schema)) return;
    seen.add(schema);
    const ref = schema.$ref;
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX))
      close(components[ref.slice(COMPONENT_PREFIX.length)]);
    if (isObject(schema.properties)) {
      if (!('additionalProperties' in schema)) schema.additionalProperties = false;
      Object.values(schema.properties).forEach(close);
    }
    if (isObject(schema.additionalProperties)) close(schema.additionalProperties);
    close(schema.items);
    for (const list of SUBSCHEMA_LISTS) if (Array.isArray(schema[list])) (schema[list] as unknown[]).forEach(close);
  };
  const paths = isObject(document.paths) ? document.paths : {};
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(isObject(operations) ? operations : {})) {
      if (!isObject(operation)) continue;
      const body = operation.requestBody;
      if (isObject(body) && isObject(body.content)) {
        for (const media of Object.values(body.content)) if (isObject(media)) close(media.schema);
      }
    }
  }
  return document;
}
