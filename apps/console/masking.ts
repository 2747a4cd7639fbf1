import type { ConsoleOperator } from '../../src/access/operators.js';
import { maskMemberId, maskName, masksPatients, yearOfBirth } from '../../src/access/masking.js';
import type { VerificationDetail } from './reads/verification.js';

/** The workflow's page data as the operator may see it (src/access/masking.ts: what a viewer sees of a patient). */
export function detailFor(operator: ConsoleOperator, detail: VerificationDetail): VerificationDetail {
  const p = detail.patient;
  if (!p || !masksPatients(operator)) return detail;
  return {
    ...detail,
    patient: {
      ...p,
      ...(p.memberId !== undefined ? { memberId: maskMemberId(p.memberId) } : {}),
      ...(p.discoveredMemberId !== undefined ? { discoveredMemberId: maskMemberId(p.discoveredMemberId) } : {}),
      ...(p.dateOfBirth !== undefined ? { dateOfBirth: yearOfBirth(p.dateOfBirth) } : {}),
    },
  };
}

/** A patient's name and date of birth as the operator may see them: a viewer gets initials and the year of birth. */
export function patientNameFor(
  operator: ConsoleOperator,
  patient: { firstName: string; lastName: string; dateOfBirth: string },
): { name: string; dateOfBirth: string } {
  if (!masksPatients(operator)) {
    return { name: `${patient.firstName} ${patient.lastName}`, dateOfBirth: patient.dateOfBirth };
  }
  return { name: maskName(patient.firstName, patient.lastName), dateOfBirth: yearOfBirth(patient.dateOfBirth) };
}
