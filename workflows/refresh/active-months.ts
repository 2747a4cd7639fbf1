import type { ActiveWindow } from './refresh.js';

/** The months (`YYYY-MM`, UTC) from `pastMonths` before the month of `now` to `nextMonths` after it, in order. */
export function activeMonths(now: number, window: ActiveWindow): string[] {
  const at = new Date(now);
  const months: string[] = [];
  for (let i = -window.pastMonths; i <= window.nextMonths; i++) {
    const d = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + i, 1));
    months.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`);
  }
  return months;
}
