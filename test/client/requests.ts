import type { VerificationRequestV1, VerificationRequestV2 } from '../../src/contract/index.js';

/** Valid requests against the sandbox's seed (payer 60054, legacy patient 1000001). */
export function v2Request(overrides: Partial<VerificationRequestV2> = {}): VerificationRequestV2 {
  return {
    patient: { firstName: 'Avery', lastName: 'Quinn', dateOfBirth: '04/12/1987', state: 'WA', memberId: 'M123456' },
    payerId: '60054',
    placeOfServiceCode: '11',
    specialtyCode: 'PHT',
    ...overrides,
  };
}

export function v1Request(overrides: Partial<VerificationRequestV1> = {}): VerificationRequestV1 {
  return {
    patientId: '1000001',
    memberId: 'M123456',
    payerId: '60054',
    npi: '1234567893',
    taxonomyCode: '207Q00000X',
    ...overrides,
  };
}

/** Awaits a promise that must reject, returning what it rejected with. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection, got a result');
}
