import type { VerificationRequestV1, VerificationRequestV2 } from '../src/contract/index.js';
import type { Timing } from '../workflows/shared/timing.js';

/** Waiting times of a test verification: polls and grace in fractions of a second. */
export const FAST: Partial<Timing> = { pollInitialSeconds: 0.2, pollMaxSeconds: 1, graceSeconds: 0.3 };

let seq = 0;
/** A caller id no other test of the run uses (the shared dev server keeps every workflow id). */
export const callerId = (name: string) => `${name}-${Date.now()}-${++seq}`;

/** A valid v2 intake request for a seeded payer; `overrides` replace whole fields. */
export function v2Intake(overrides: Record<string, unknown> = {}) {
  return {
    id: callerId('v2'),
    patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '12/10/1985', state: 'NY', memberId: 'M1234567' },
    payerId: '60054',
    placeOfServiceCode: '11',
    specialtyCode: 'PRC',
    ...overrides,
  };
}

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

/** A valid v1 intake request for the sandbox's seed (legacy patient 1000001, payer 60054). */
export function v1Intake(overrides: Record<string, unknown> = {}) {
  return {
    version: 'v1',
    id: callerId('v1'),
    patientId: '1000001',
    memberId: 'M7654321',
    payerId: '60054',
    npi: '1234567893',
    ...overrides,
  };
}

/** An intake API key long enough for INTAKE_API_KEY's minimum. */
export const TEST_INTAKE_KEY = 'test-intake-key-0123456789abcdef0123';
