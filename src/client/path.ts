import { INVALID_REQUEST } from '../contract/index.js';
import { InvalidRequestError } from './errors.js';

/**
 * Encodes one path parameter. Percent-encoding keeps an id from adding `/`, `?` or `#` to the path; `.` and `..` are
 * refused because URL parsing resolves them (even encoded) as dot segments, which would call another endpoint. A bad
 * id is the caller's mistake: it is refused naming the parameter, like the service names a bad field, and costs no
 * call.
 */
export function encodePathParam(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new InvalidRequestError(
      { error: INVALID_REQUEST, param: name },
      `${INVALID_REQUEST} (param ${name}): expected a non-empty identifier; not sent`,
    );
  }
  return encodeURIComponent(value);
}
