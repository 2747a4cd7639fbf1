import type { FastifyRequest } from 'fastify';
import { DEFAULT_EVENT_TENANT } from '../../workflows/shared/search-attributes.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import type { Appointment, PatientCopy } from '../../workflows/patient/patient.js';
import { audited } from './audit.js';
import type { ConsoleDeps } from './deps.js';
import { patientNameFor } from './masking.js';
import { operatorOf } from './session.js';

/** A patient on a row of a list: name and date of birth as the operator may see them, and its copy's visits. */
export interface PatientRow {
  patientId: string;
  name: string;
  dateOfBirth: string;
  copy: PatientCopy;
}

/** What a row shows of a patient, by name (the audit trail's `fields`). */
const ROW_FIELDS = ['patient.firstName', 'patient.lastName', 'patient.dateOfBirth'] as const;

/**
 * The patients of a list's rows, read from their copies within the operator's tenants (src/visits), masked for a
 * viewer, each shown one a `patient.read` entry naming it, as its own page is. Without the copies, none: the rows
 * show their identifiers alone.
 */
export async function patientRows(
  deps: ConsoleDeps,
  request: FastifyRequest,
  patientIds: readonly string[],
): Promise<Map<string, PatientRow>> {
  if (!deps.visits || patientIds.length === 0) return new Map();
  const operator = operatorOf(request);
  const copies = await deps.visits.copies([...new Set(patientIds)], operator.tenants);
  const rows = new Map<string, PatientRow>();
  for (const [patientId, copy] of copies) {
    if (!copy.patient) continue;
    await audited(deps.audit, request, {
      action: 'patient.read',
      workflowId: patientWorkflowId(patientId),
      tenant: copy.tenant === DEFAULT_EVENT_TENANT ? null : copy.tenant,
      fields: ROW_FIELDS,
    });
    rows.set(patientId, { patientId, ...patientNameFor(operator, copy.patient), copy });
  }
  return rows;
}

/** The patient a verification of its own checks belongs to (`verification-pt_<hex>-<n>`, workflows/shared/ids.ts). */
export const patientOfCheck = (workflowId: string): string | undefined =>
  /^verification-(pt_[0-9a-f]{32})-\d+$/.exec(workflowId)?.[1];

/** The patient and the visit of one of its checks' verifications. */
export interface CheckOf {
  patient: PatientRow;
  visit?: Appointment;
}

/**
 * The patients and visits of a list's verifications that are patients' checks (each patient audited as `patientRows`
 * does); other verifications are absent.
 */
export async function checksOf(
  deps: ConsoleDeps,
  request: FastifyRequest,
  workflowIds: readonly string[],
): Promise<Map<string, CheckOf>> {
  const patientOf = new Map(workflowIds.flatMap((w) => (patientOfCheck(w) ? [[w, patientOfCheck(w)!] as const] : [])));
  const patients = await patientRows(deps, request, [...patientOf.values()]);
  const found = new Map<string, CheckOf>();
  for (const [workflowId, patientId] of patientOf) {
    const patient = patients.get(patientId);
    if (!patient) continue;
    const { appointments, timeline } = patient.copy;
    const appointmentId = timeline.find((e) => e.workflowId === workflowId)?.appointmentId;
    const visit =
      appointments.find((a) => a.checks.some((c) => c.verificationWorkflowId === workflowId)) ??
      appointments.find((a) => a.appointmentId === appointmentId);
    found.set(workflowId, { patient, ...(visit ? { visit } : {}) });
  }
  return found;
}
