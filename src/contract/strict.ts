import { z } from 'zod';
import { PLAIN } from './issue-words.js';

type Path = (string | number)[];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The first field of `input` that parsing dropped: a key present in the input and absent from the parse's output
 * where the output is still the same kind of container. zod's `z.object` strips keys it does not know; comparing
 * input with output finds them whatever the schema is made of (unions, defaults, coercions), while records and loose
 * objects, which keep their keys, are left as they are.
 */
export function droppedField(
  input: unknown,
  output: unknown,
  path: Path = [],
): { path: Path; key: string } | undefined {
  if (Array.isArray(input) && Array.isArray(output)) {
    for (let i = 0; i < input.length && i < output.length; i++) {
      const found = droppedField(input[i], output[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(input) || !isPlainObject(output)) return undefined;
  for (const key of Object.keys(input)) {
    if (!(key in output)) return { path, key };
    const found = droppedField(input[key], output[key], [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * `schema`, refusing every field it does not know, at any depth, as an `unrecognized_keys` issue naming it (a typo
 * such as `patient.memberID` is then a 400 naming it, never a request quietly taken without what the caller meant).
 * The intake API validates every body and query string through it, so a route gets this without asking.
 */
export function strictly<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, z.input<S>> {
  return z.unknown().transform((input, ctx) => {
    const parsed = schema.safeParse(input, PLAIN);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue(issue as Parameters<typeof ctx.addIssue>[0]);
      return z.NEVER;
    }
    const dropped = droppedField(input, parsed.data);
    if (dropped) {
      ctx.addIssue({
        code: 'unrecognized_keys',
        keys: [dropped.key],
        path: dropped.path,
        message: 'unknown field',
      });
      return z.NEVER;
    }
    return parsed.data;
  }) as unknown as z.ZodType<z.output<S>, z.input<S>>;
}
