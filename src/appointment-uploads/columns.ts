/**
 * The columns of a schedule upload's CSV (issue 35): one appointment a row, as a practice-management system exports
 * its day or week. The patient's details are flat (`firstName` …), the rest as `POST /appointments` names them, and
 * `appointmentRef` (the practice's own id of the visit) makes a re-upload of the same row the same appointment.
 */
export const UPLOAD_COLUMNS = [
  'appointmentRef',
  'patientRef',
  'firstName',
  'lastName',
  'dateOfBirth',
  'state',
  'memberId',
  'payerId',
  'dateOfService',
  'startTime',
  'timeZone',
  'specialtyCode',
  'placeOfServiceCode',
  'providerGroupId',
] as const;

const PATIENT_COLUMNS = ['firstName', 'lastName', 'dateOfBirth', 'state', 'memberId'] as const;

/** The nested form of a CSV row (as a JSONL line gives it): an empty cell is an absent field. */
export function cellsToAppointment(cells: Readonly<Record<string, string>>): Record<string, unknown> {
  const value = (column: string) => {
    const cell = cells[column]?.trim();
    return cell === undefined || cell === '' ? undefined : cell;
  };
  const fields: Record<string, unknown> = {};
  const patient: Record<string, string> = {};
  for (const column of UPLOAD_COLUMNS) {
    const cell = value(column);
    if (cell === undefined) continue;
    if ((PATIENT_COLUMNS as readonly string[]).includes(column)) patient[column] = cell;
    else fields[column] = cell;
  }
  if (Object.keys(patient).length > 0) fields.patient = patient;
  return fields;
}
