import type { ConsoleOperator } from '../../src/access/operators.js';
import { maskMemberId, masksPatients, yearOfBirth } from '../../src/access/masking.js';
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
