import type { z } from 'zod';
import { INVALID_REQUEST } from '../contract/index.js';
import { InvalidRequestError } from './errors.js';

/**
 * Encodes one path parameter. Percent-encoding keeps an id from adding `/`, `?` or `#` to the path; `.` and `..` are
 * refused because URL parsing resolves them (even encoded) as dot segments, which would call another endpoint. When
 * the spec gives the id a form (`flowRunId` in UUID form, `endpointId` starting `ep_`), `schema` checks it. A bad id
 * is the caller's mistake: it is refused naming the parameter, like the service names a bad field, and costs no call.
 */
export function encodePathParam(name: string, value: unknown, schema?: z.ZodType<string>): string {
  let problem: string | undefined;
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    problem = 'expected a non-empty identifier';
  } else if (schema) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) problem = parsed.error.issues[0]?.message ?? 'invalid';
  }
  if (problem !== undefined) {
    throw new InvalidRequestError(
      { error: INVALID_REQUEST, param: name },
      `${INVALID_REQUEST} (param ${name}): ${problem}; not sent`,
    );
  }
  return encodeURIComponent(value as string);
}
