import type { IntakeAnswer } from './intake-http.js';

/** A time the engine could not serve: from the fault to the moment it served again. */
export interface Outage {
  label: string;
  downAt: number;
  upAt: number;
}

const failedAnswer = (a: IntakeAnswer) => a.status === 0 || a.status >= 500;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * How the intake API answered around outages: 5xx while the engine was up vs during an outage, and how soon it served
 * again after each. An attempt that overlapped an outage is the outage's; "while up" means sent and answered with the
 * engine serving.
 */
export function outageReport(attempts: readonly IntakeAnswer[], outages: readonly Outage[]) {
  const overlaps = (a: IntakeAnswer, o: Outage) => a.answeredAt >= o.downAt && a.sentAt < o.upAt;
  const whileUp = (a: IntakeAnswer) => !outages.some((o) => overlaps(a, o));
  const during = attempts.filter((a) => !whileUp(a));
  const slowest = Math.max(0, ...during.map((a) => a.answeredAt - a.sentAt));
  const failedWhileUp = attempts.filter((a) => failedAnswer(a) && whileUp(a)).length;
  const failedDuring = during.filter(failedAnswer).length;
  const lines = [
    `  intake API: ${attempts.length} answers; ${during.length} to requests overlapping an outage` +
      ` (${failedDuring} of them 5xx or none, slowest answer ${seconds(slowest)}); ${failedWhileUp} 5xx while up`,
  ];
  for (const [i, outage] of outages.entries()) {
    const nextDown = outages[i + 1]?.downAt ?? Infinity;
    // Up to the next outage: an answer that overlaps it is that outage's.
    const after = attempts.filter((a) => a.sentAt >= outage.upAt && a.answeredAt < nextDown);
    const firstOk = Math.min(...after.filter((a) => a.status >= 200 && a.status < 300).map((a) => a.answeredAt));
    const lastFailed = Math.max(...after.filter(failedAnswer).map((a) => a.answeredAt));
    lines.push(
      `  intake API after ${outage.label}: first success ${Number.isFinite(firstOk) ? `+${seconds(firstOk - outage.upAt)}` : 'never'},` +
        ` last 5xx ${Number.isFinite(lastFailed) ? `+${seconds(lastFailed - outage.upAt)}` : 'none'} (from the moment it served again)`,
    );
  }
  return { whileUp: failedWhileUp, duringOutage: failedDuring, lines };
}
