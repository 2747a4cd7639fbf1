import { createHmac } from 'node:crypto';
import type { VerificationIntake } from '../contract/index.js';
import { intakeMemberId } from '../../workflows/verification/verification.js';
import type { BlindIndexKey, BlindIndexKeys } from './keys.js';
import { normaliseDateOfBirth, normaliseLastName, normaliseMemberId } from './normalise.js';

/** What a patient is found by. */
export interface PatientKeys {
  lastName?: string;
  dateOfBirth?: string;
  memberId?: string;
}

/** A tenant's part of every hash: verifications of no tenant (a single-tenant install) share one. */
const NO_TENANT = '';

/** 16 bytes of HMAC-SHA256, base64url: 22 characters, far past any collision among one tenant's patients. */
const TOKEN_BYTES = 16;

/**
 * One keyed hash. The tenant is inside the hash, so the same patient at two clinics gives two unrelated tokens: a
 * token matches within its tenant only, and the index cannot link a patient across tenants.
 */
function token(key: BlindIndexKey, tenant: string | undefined, kind: 'name-dob' | 'member', value: string): string {
  const mac = createHmac('sha256', key.key)
    .update(`${kind}\0${tenant ?? NO_TENANT}\0${value}`, 'utf8')
    .digest();
  return mac.subarray(0, TOKEN_BYTES).toString('base64url');
}

/** The normalised values a patient is indexed or searched by: last name + date of birth together, member id alone. */
function values(patient: PatientKeys): { kind: 'name-dob' | 'member'; value: string }[] {
  const found: { kind: 'name-dob' | 'member'; value: string }[] = [];
  const lastName = patient.lastName === undefined ? undefined : normaliseLastName(patient.lastName);
  const dateOfBirth = patient.dateOfBirth === undefined ? undefined : normaliseDateOfBirth(patient.dateOfBirth);
  if (lastName && dateOfBirth) found.push({ kind: 'name-dob', value: `${lastName}\0${dateOfBirth}` });
  const memberId = patient.memberId === undefined ? undefined : normaliseMemberId(patient.memberId);
  if (memberId) found.push({ kind: 'member', value: memberId });
  return found;
}

/** The tokens a new verification is found by, with the current key only. */
export function indexTokens(keys: BlindIndexKeys, tenant: string | undefined, patient: PatientKeys): string[] {
  return values(patient).map(({ kind, value }) => token(keys.current, tenant, kind, value));
}

/** The tokens a search looks for: every key of the ring, every tenant the searcher may see. */
export function searchTokens(keys: BlindIndexKeys, tenants: readonly (string | undefined)[], patient: PatientKeys) {
  const found = new Set<string>();
  for (const key of keys.all)
    for (const tenant of tenants)
      for (const { kind, value } of values(patient)) found.add(token(key, tenant, kind, value));
  return [...found];
}

/** What an intake request is found by: v2 carries the patient's name and date of birth; v1 only a member id. */
export function intakePatientKeys(intake: VerificationIntake): PatientKeys {
  const memberId = intakeMemberId(intake);
  if (intake.version === 'v1') return memberId ? { memberId } : {};
  const { lastName, dateOfBirth } = intake.patient;
  return { lastName, dateOfBirth, ...(memberId ? { memberId } : {}) };
}
