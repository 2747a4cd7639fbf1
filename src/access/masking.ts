import type { BatchResultRow } from '../batches/results.js';
import type { OperatorRole } from './operators.js';

/**
 * What a viewer sees of a patient (docs/operating/console.md): a member id by its last four characters only
 * (`••••4567`), a date of birth by its year only. Applied to the data before anything renders it, so no page, download
 * or CLI output of a viewer holds the full value. The audit trail still names the fields shown: a masked member id is
 * still a disclosure.
 */
export const masksPatients = (person: { role: OperatorRole }): boolean => person.role === 'viewer';

const HIDDEN = '••••';

/** `••••` and the last four characters; a value of four characters or fewer is hidden whole. */
export const maskMemberId = (memberId: string): string =>
  memberId.length > 4 ? `${HIDDEN}${memberId.slice(-4)}` : HIDDEN;

/** The year of a date of birth (`12/10/1985`, `1985-12-10`: `1985`); nothing else of it. */
export const yearOfBirth = (dateOfBirth: string): string => /(?:^|\D)(\d{4})(?:\D|$)/.exec(dateOfBirth)?.[1] ?? HIDDEN;

/** A batch's results as the person may see them (the console's download, `eligibility batches results`). */
export function resultsFor(person: { role: OperatorRole }, rows: BatchResultRow[]): BatchResultRow[] {
  if (!masksPatients(person)) return rows;
  return rows.map((row) => (row.memberId !== undefined ? { ...row, memberId: maskMemberId(row.memberId) } : row));
}

const initial = (name: string) => (name.trim() ? `${[...name.trim()][0]!.toUpperCase()}.` : '');

/** A name by its initials (`H. L.`): a viewer tells the rows of a list apart without reading whom they name. */
export const maskName = (firstName: string, lastName: string): string =>
  [initial(firstName), initial(lastName)].filter(Boolean).join(' ') || HIDDEN;
