import { InvalidArgumentError } from 'commander';
import { BatchIdSchema } from '../../src/batches/limits.js';

/** A commander parser from a zod schema: the option's error says what was expected, never echoing the value. */
export function parsedWith<T>(schema: {
  safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}) {
  return (value: string): T => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new InvalidArgumentError(`${parsed.error.issues[0]?.message ?? 'invalid'}.`);
    return parsed.data;
  };
}

/** Option parser for one of a fixed list of values. */
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): T => {
    if (!(values as readonly string[]).includes(value))
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}.`);
    return value as T;
  };

/** Option parser for a comma-separated list (`a,b, c`): its non-empty items. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** A batch id argument, checked before anything connects. */
export const batchIdArgument = parsedWith(BatchIdSchema);
