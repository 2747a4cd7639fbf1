import type { Appointment, PatientCopy } from '../../workflows/patient/patient.js';

/** Where a visit's coverage stands, in the order the front desk's day lists and counts them. */
export const VISIT_COVERAGES = [
  'verified',
  'no-coverage',
  'needs-input',
  'failed',
  'checking',
  'not-checked',
  'changed',
] as const;
export type VisitCoverage = (typeof VISIT_COVERAGES)[number];

export const isVisitCoverage = (value: unknown): value is VisitCoverage =>
  (VISIT_COVERAGES as readonly unknown[]).includes(value);

/** The verification that answered the appointment's latest check (run for it or reused), if any has. */
export function checkWorkflowId(appointment: Pick<Appointment, 'checks'>): string | undefined {
  let latest: Appointment['checks'][number] | undefined;
  for (const check of appointment.checks) {
    const answered = (check.state === 'verified' || check.state === 'reused') && check.verificationWorkflowId;
    if (answered && (!latest || check.at >= latest.at)) latest = check;
  }
  return latest?.verificationWorkflowId;
}

/**
 * Where the visit's coverage stands, from the patient's copy: its latest answered check names a verification; until
 * that verification is on the timeline it is `checking`, or `needs-input` when it is among the verifications a reader
 * found waiting for a person (`awaiting`, from Temporal); once there, a change nobody has seen is `changed`, else the
 * entry's coverage.
 */
export function visitCoverage(
  appointment: Pick<Appointment, 'checks'>,
  copy: PatientCopy,
  awaiting: ReadonlySet<string> = new Set(),
): VisitCoverage {
  const workflowId = checkWorkflowId(appointment);
  if (!workflowId) return 'not-checked';
  const entry = copy.timeline.find((e) => e.workflowId === workflowId);
  if (!entry) return awaiting.has(workflowId) ? 'needs-input' : 'checking';
  if (copy.changes.some((c) => c.workflowId === workflowId && c.seenAt === undefined)) return 'changed';
  return entry.coverage === 'covered' ? 'verified' : entry.coverage;
}
