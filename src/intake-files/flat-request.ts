/**
 * The flat form of an intake request: one value per column, as a CSV row or the `start` command's flags carry it.
 * Mapped to the nested request of the contract (`VerificationIntake`), which then names a bad field by its nested
 * `param` (e.g. `patient.dateOfBirth`), the same name the service and the intake API use.
 */
export const FLAT_COLUMNS = [
  'id',
  'version',
  'payerId',
  'firstName',
  'lastName',
  'dateOfBirth',
  'state',
  'memberId',
  'placeOfServiceCode',
  'specialtyCode',
  'providerGroupId',
  'discoveryId',
  'patientId',
  'npi',
  'taxonomyCode',
  'subscriberFirstName',
  'subscriberLastName',
  'subscriberDateOfBirth',
] as const;

export type FlatColumn = (typeof FLAT_COLUMNS)[number];
export type FlatRequest = Partial<Record<FlatColumn, string>>;

/** Drops undefined fields, so an empty cell reads as an absent field rather than an empty string. */
function compact(fields: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = Object.entries(fields).filter(([, value]) => value !== undefined);
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/**
 * The nested request of one flat row. `version` empty means v2 (the contract's default) unless the row names a
 * `patientId`, which only v1 has: a v1 row then needs no `version` column. Any other version is passed on for the
 * contract to reject by name.
 */
export function flatToRequest(flat: FlatRequest): Record<string, unknown> {
  const value = (column: FlatColumn): string | undefined => {
    const cell = flat[column]?.trim();
    return cell === undefined || cell === '' ? undefined : cell;
  };
  const version = value('version') ?? (value('patientId') === undefined ? 'v2' : 'v1');
  const common = {
    version,
    id: value('id'),
    payerId: value('payerId'),
    discoveryId: value('discoveryId'),
    subscriber: compact({
      firstName: value('subscriberFirstName'),
      lastName: value('subscriberLastName'),
      dateOfBirth: value('subscriberDateOfBirth'),
    }),
  };
  if (version === 'v1') {
    return compact({
      ...common,
      patientId: value('patientId'),
      memberId: value('memberId'),
      npi: value('npi'),
      taxonomyCode: value('taxonomyCode'),
      placeOfServiceCode: value('placeOfServiceCode'),
    })!;
  }
  return compact({
    ...common,
    patient: compact({
      firstName: value('firstName'),
      lastName: value('lastName'),
      dateOfBirth: value('dateOfBirth'),
      state: value('state'),
      memberId: value('memberId'),
    }),
    placeOfServiceCode: value('placeOfServiceCode'),
    specialtyCode: value('specialtyCode'),
    providerGroupId: value('providerGroupId'),
  })!;
}
