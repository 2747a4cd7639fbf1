/** The parts of an intake request that hold patient data: the whole object under these keys, or the value itself. */
const PATIENT_OBJECTS = ['patient', 'subscriber'] as const;
const PATIENT_VALUES = ['memberId', 'patientId'] as const;

/**
 * The names of the patient-data fields a request carries (`patient.dateOfBirth`, `memberId`), for the audit trail:
 * names only, never a value.
 */
export function patientFields(request: unknown): string[] {
  if (typeof request !== 'object' || request === null) return [];
  const record = request as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of PATIENT_OBJECTS) {
    const value = record[key];
    if (typeof value === 'object' && value !== null) {
      for (const [name, inner] of Object.entries(value)) if (inner !== undefined) fields.push(`${key}.${name}`);
    }
  }
  for (const key of PATIENT_VALUES) if (record[key] !== undefined) fields.push(key);
  return fields;
}

/** The union of the patient fields of many requests (a batch), sorted. */
export const patientFieldsOfAll = (requests: readonly unknown[]): string[] =>
  [...new Set(requests.flatMap(patientFields))].sort();

/**
 * What a verification's status tells of its patient, by name: the coverage its discovery found, its runs and the
 * verification's id at the service. The status never holds a name, a date of birth or a member id.
 */
export function statusFields(status: { discovery?: unknown; runs: readonly unknown[]; verificationId?: string }) {
  return [
    ...(status.discovery !== undefined ? ['discovery'] : []),
    ...(status.runs.length > 0 ? ['runs'] : []),
    ...(status.verificationId !== undefined ? ['verificationId'] : []),
  ];
}
