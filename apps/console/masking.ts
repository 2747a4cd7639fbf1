import type { ConsoleOperator } from '../../src/access/operators.js';
import type { BatchResultRow } from '../../src/batches/results.js';
import type { VerificationDetail } from './reads/verification.js';

/**
 * What a viewer sees of a patient (DESIGN §13): a member id by its last four characters only (`••••4567`), a date of
 * birth by its year only. Applied to the data before any view renders it, so no page or download of a viewer holds
 * the full value. The audit trail still names the fields shown: a masked member id is still a disclosure.
 */
export const masksPatients = (operator: ConsoleOperator): boolean => operator.role === 'viewer';

const HIDDEN = '••••';

/** `••••` and the last four characters; a value of four characters or fewer is hidden whole. */
export const maskMemberId = (memberId: string): string =>
  memberId.length > 4 ? `${HIDDEN}${memberId.slice(-4)}` : HIDDEN;

/** The year of a date of birth (`12/10/1985`, `1985-12-10`: `1985`); nothing else of it. */
export const yearOfBirth = (dateOfBirth: string): string => /(?:^|\D)(\d{4})(?:\D|$)/.exec(dateOfBirth)?.[1] ?? HIDDEN;

/** The workflow's page data as the operator may see it. */
export function detailFor(operator: ConsoleOperator, detail: VerificationDetail): VerificationDetail {
  const p = detail.patient;
  if (!p || !masksPatients(operator)) return detail;
  return {
    ...detail,
    patient: {
      ...p,
      ...(p.memberId !== undefined ? { memberId: maskMemberId(p.memberId) } : {}),
      ...(p.dateOfBirth !== undefined ? { dateOfBirth: yearOfBirth(p.dateOfBirth) } : {}),
    },
  };
}

/** A batch's results as the operator may download them. */
export function resultsFor(operator: ConsoleOperator, rows: BatchResultRow[]): BatchResultRow[] {
  if (!masksPatients(operator)) return rows;
  return rows.map((row) => (row.memberId !== undefined ? { ...row, memberId: maskMemberId(row.memberId) } : row));
}
