import { MAX_WAIT_SECONDS } from '../../src/temporal/await-settled.js';

/**
 * The seconds a `Prefer: wait=<seconds>` header asks for (RFC 7240), at most MAX_WAIT_SECONDS; undefined without one.
 * Preferences are hints: one that is malformed or not understood is ignored, never refused.
 */
export function preferredWait(header: string | string[] | undefined): number | undefined {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  for (const preference of values.flatMap((v) => v.split(','))) {
    const match = /^\s*wait\s*=\s*"?(\d{1,6})"?\s*(;.*)?$/i.exec(preference);
    if (match) return Math.min(Number(match[1]), MAX_WAIT_SECONDS);
  }
  return undefined;
}
