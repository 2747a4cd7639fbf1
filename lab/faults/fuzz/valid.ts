import { SPECIALTY_CODES, STATE_CODES } from '../../../src/contract/index.js';
import { SEED_PATIENTS, SEED_PAYERS, SEED_PROVIDER_GROUPS } from '../../../sandbox/index.js';
import { pastDate } from './dates.js';
import type { Prng } from './prng.js';

/**
 * Valid intake requests, varied within what any version of the contract accepts: short names (accented ones too),
 * real past dates of birth, seeded payers, optional fields present or not. Every one carries the caller id it is
 * given, so each must start exactly one workflow.
 */

export type Json = Record<string, unknown>;

const FIRST_NAMES = ['Avery', 'Jordan', 'María', 'José', 'Zoë', 'Siobhán', 'Chloé', 'Amara', 'Søren', 'Ngozi', 'Li'];
const LAST_NAMES = ["O'Brien", 'Quinn', 'Łukasiewicz', 'Müller', 'García', 'Okafor', 'Van der Berg', 'Smith-Jones'];
const PLACES_OF_SERVICE = ['02', '10', '11', '12', '22', '49', '53', '99'];
const TAXONOMY_CODES = ['207Q00000X', '208D00000X', '363L00000X', '101YM0800X'];

export function uuid(r: Prng): string {
  const hex = (n: number) => Array.from({ length: n }, () => r.int(0, 15).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${r.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
}

export function person(r: Prng): Json {
  return { firstName: r.pick(FIRST_NAMES), lastName: r.pick(LAST_NAMES), dateOfBirth: pastDate(r) };
}

/** payerId, discoveryId, or both: one of them is always there. */
function payerOrDiscovery(r: Prng): Json {
  const which = r.int(0, 9);
  if (which < 7) return { payerId: r.pick(SEED_PAYERS).payerId };
  if (which < 9) return { discoveryId: uuid(r) };
  return { payerId: r.pick(SEED_PAYERS).payerId, discoveryId: uuid(r) };
}

export function validV2(r: Prng, id: string): Json {
  const patient: Json = { ...person(r) };
  if (r.chance(0.7)) patient.state = r.pick(STATE_CODES);
  if (r.chance(0.6)) patient.memberId = `M${r.digits(8)}`;
  return {
    ...(r.chance(0.7) ? { version: 'v2' } : {}),
    id,
    patient,
    ...payerOrDiscovery(r),
    placeOfServiceCode: r.pick(PLACES_OF_SERVICE),
    specialtyCode: r.pick(Object.keys(SPECIALTY_CODES)),
    ...(r.chance(0.3) ? { providerGroupId: r.pick(SEED_PROVIDER_GROUPS).providerGroupId } : {}),
    ...(r.chance(0.2) ? { subscriber: person(r) } : {}),
  };
}

export function validV1(r: Prng, id: string): Json {
  const target = payerOrDiscovery(r);
  // v1 sends the member id itself: required unless a discovery will tell it.
  const memberId = target.discoveryId === undefined || r.chance(0.5) ? { memberId: `M${r.digits(8)}` } : {};
  return {
    version: 'v1',
    id,
    patientId: r.pick(SEED_PATIENTS).patientId,
    ...memberId,
    ...target,
    npi: r.digits(10),
    ...(r.chance(0.5) ? { taxonomyCode: r.pick(TAXONOMY_CODES) } : {}),
    ...(r.chance(0.5) ? { placeOfServiceCode: r.pick(PLACES_OF_SERVICE) } : {}),
    ...(r.chance(0.2) ? { subscriber: person(r) } : {}),
  };
}
