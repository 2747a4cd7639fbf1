import type { CheckPolicy } from '../../workflows/patient/patient.js';
import { DEFAULT_CHECK_POLICY } from '../../workflows/patient/patient.js';

const DAY_MS = 86_400_000;

/**
 * A time-compressed month (decision 0053): real dates of service, each day `dayMs` long from `origin`, and the
 * default check policy scaled to that day, so the product runs its own rules on a clock a benchmark can wait for.
 */
export interface CompressedMonth {
  origin: number;
  dayMs: number;
  /** The first date of the month (day 0), YYYY-MM-DD. */
  firstDate: string;
}

export const dateOfDay = (month: CompressedMonth, day: number) =>
  new Date(Date.parse(`${month.firstDate}T00:00:00Z`) + day * DAY_MS).toISOString().slice(0, 10);

/** The compressed start of a date of service: the calendar the bench's patients count days by. */
export const compressedDayStart = (month: CompressedMonth) => (dateOfService: string) =>
  month.origin +
  ((Date.parse(`${dateOfService}T00:00:00Z`) - Date.parse(`${month.firstDate}T00:00:00Z`)) / DAY_MS) * month.dayMs;

/** The default offsets and reuse windows, a day being `dayMs`. */
export function compressedPolicy(dayMs: number): Partial<CheckPolicy> {
  const scale = dayMs / DAY_MS;
  return {
    offsets: DEFAULT_CHECK_POLICY.offsets.map((o) => ({
      offsetSeconds: o.offsetSeconds * scale,
      reuseWithinSeconds: o.reuseWithinSeconds * scale,
    })),
  };
}
