import type { z } from 'zod';

/** true when A and B are the same type (not merely assignable: a field missing on either side makes them differ). */
type Same<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;

/**
 * Compiles only when `schema` describes `T` exactly: its output is `T`, field for field (a field it lacked would be
 * stripped from the answer), and every `T` is valid input to it. No runtime effect; the schema is returned as it is.
 * The API's answers are TypeScript types defined where they are made (workflow code takes no zod); this keeps each
 * schema and its type from drifting apart, in either direction.
 */
export function describes<T>() {
  return <S extends z.ZodType>(
    schema: S & (Same<z.output<S>, T> extends true ? ([T] extends [z.input<S>] ? unknown : never) : never),
  ): S => schema;
}
