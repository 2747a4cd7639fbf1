import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string | Uint8Array) => createHash('sha256').update(value).digest();

/**
 * The project's one comparison of secrets: API keys, tokens, credentials, signatures. Both sides are hashed first, so
 * the comparison takes the same time whatever the lengths and wherever the values differ (an early return on a
 * length mismatch would tell a caller the secret's length). It lives in the contract because the sandbox, which
 * imports nothing else of the project, needs it too; it is imported by its own path, since node:crypto is not
 * workflow-safe.
 */
export function secretsEqual(given: string | Uint8Array | undefined, expected: string | Uint8Array): boolean {
  // A missing value is compared too, so that it takes as long as a wrong one.
  const same = timingSafeEqual(digest(given ?? ''), digest(expected));
  return given !== undefined && same;
}
