/**
 * The longest wait the client reports from a `Retry-After` header. A service asking for more is either confused or
 * down for a while; Temporal's own backoff (capped at a few minutes) is the better judge then, and a workflow's
 * deadline should not be spent in one sleep.
 */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

/**
 * Reads `Retry-After` (RFC 9110 §10.2.3) as delay-seconds or an HTTP-date, in milliseconds from `now`, bounded to
 * [0, MAX_RETRY_AFTER_MS]. Returns undefined when the header is absent or unreadable, so the caller falls back to
 * its own backoff instead of trusting a garbled value.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) {
    ms = Number(text) * 1000;
  } else {
    // An HTTP-date names its month (`Wed, 21 Oct 2015 07:28:00 GMT`); Date.parse alone would also take `-1` or `7`.
    const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
    if (Number.isNaN(date)) return undefined;
    ms = date - now;
  }
  return Math.min(Math.max(Math.round(ms), 0), MAX_RETRY_AFTER_MS);
}
