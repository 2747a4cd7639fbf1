import type { HistoryEvent } from '../testing/billed-actions.js';

/** An event's time (server clock), in epoch milliseconds. */
export function eventMs(event: HistoryEvent): number {
  const ts = event.eventTime;
  if (!ts) return Number.NaN;
  const seconds = typeof ts.seconds === 'number' ? ts.seconds : Number(ts.seconds?.toString() ?? 0);
  return seconds * 1000 + (ts.nanos ?? 0) / 1e6;
}
