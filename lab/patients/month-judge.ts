import type { CoverageEntry, PatientView } from '../../workflows/patient/patient.js';

/** A verification as the sandbox recorded its creation. */
export interface SandboxCreation {
  verificationId: string;
  at: number;
}

export interface MonthInput {
  views: PatientView[];
  creations: SandboxCreation[];
  /** Cancelled appointments: when the cancel was answered, and the verifications their checks had run by then. */
  cancelled: Map<string, { at: number; before: Set<string> }>;
  dayMs: number;
  now: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!);

/**
 * The month's figures. A scheduled appointment is verified inside its window when a verification of its patient that
 * the sandbox created was answered from one reuse window (a day) before its morning check until its day ends: the
 * visit is met by an answer no older than the policy allows, its age counted from when it was answered, as the
 * product's reuse rule counts it (at 12 s days a verification's second of work is two compressed hours, so a count from
 * its creation would miss answers the rule rightly reuses). Twice in one window: two creations for one patient less
 * than a reuse window apart (the product reuses an answer that recent). A cancelled appointment is verified when a
 * creation for its patient follows the cancel and is none of the checks it had run before.
 */
export function judgeMonth({ views, creations, cancelled, dayMs, now }: MonthInput) {
  const entryOf = new Map<string, { view: PatientView; entry: CoverageEntry }>();
  for (const view of views) {
    for (const entry of view.timeline) if (entry.verificationId) entryOf.set(entry.verificationId, { view, entry });
  }
  const byPatient = new Map<string, { at: number; answeredAt: number; workflowId: string }[]>();
  let unattributed = 0;
  for (const c of creations) {
    const known = entryOf.get(c.verificationId);
    if (!known) {
      unattributed++;
      continue;
    }
    const list = byPatient.get(known.view.patientId) ?? [];
    list.push({ at: c.at, answeredAt: known.entry.at, workflowId: known.entry.workflowId });
    byPatient.set(known.view.patientId, list);
  }
  const createdAt = new Map<string, number>();
  let twiceInWindow = 0;
  for (const list of byPatient.values()) {
    list.sort((a, b) => a.at - b.at);
    list.forEach((c, i) => {
      createdAt.set(c.workflowId, c.at);
      if (i > 0 && c.at - list[i - 1]!.at < dayMs) twiceInWindow++;
    });
  }
  let appointments = 0;
  let insideWindow = 0;
  let cancelledVerified = 0;
  const checks = { verified: 0, reused: 0, skipped: 0, waiting: 0 };
  const late: number[] = [];
  /** A few appointments outside their window, in days from their visit's day: what the product did instead. */
  const misses: string[] = [];
  /** Why: its last check reused an answer created before the window, ran after the day ended (late), or other. */
  const outside: Record<string, number> = {};
  const days = (at: number, from: number) => ((at - from) / dayMs).toFixed(2);
  for (const view of views) {
    const created = byPatient.get(view.patientId) ?? [];
    for (const appointment of view.appointments) {
      for (const check of appointment.checks) {
        checks[check.state]++;
        const at = check.state === 'verified' ? createdAt.get(check.verificationWorkflowId ?? '') : undefined;
        if (at !== undefined) late.push(at - check.at);
      }
      if (appointment.status === 'cancelled') {
        const cancel = cancelled.get(appointment.appointmentId);
        if (cancel && created.some((c) => c.at > cancel.at && !cancel.before.has(c.workflowId))) cancelledVerified++;
        continue;
      }
      const from = appointment.dayStartsAt + dayMs / 4 - dayMs;
      const to = appointment.dayStartsAt + dayMs;
      if (to > now) continue;
      appointments++;
      if (created.some((c) => c.answeredAt >= from && c.answeredAt < to)) {
        insideWindow++;
        continue;
      }
      const last = appointment.checks.at(-1);
      const lastAt = last?.state === 'verified' ? createdAt.get(last.verificationWorkflowId ?? '') : undefined;
      const why =
        last?.state === 'reused' ? 'reused' : lastAt !== undefined && lastAt >= to ? 'late' : (last?.state ?? 'none');
      outside[why] = (outside[why] ?? 0) + 1;
      if (misses.length < 5) {
        const start = appointment.dayStartsAt;
        misses.push(
          `checks ${appointment.checks.map((c) => `${c.state}@${days(c.at, start)}`).join(' ')}; ` +
            `created ${created.map((c) => days(c.at, start)).join(' ')}`,
        );
      }
    }
  }
  late.sort((a, b) => a - b);
  return {
    appointments,
    insideWindow,
    twiceInWindow,
    cancelled: cancelled.size,
    cancelledVerified,
    unattributed,
    checks,
    lateP50Ms: percentile(late, 0.5),
    lateP99Ms: percentile(late, 0.99),
    lateMaxMs: late.length === 0 ? 0 : Math.round(late.at(-1)!),
    misses,
    outside,
  };
}
