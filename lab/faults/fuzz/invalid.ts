import { SEED_PAYERS } from '../../../sandbox/index.js';
import { badDatePattern, futureDate, impossibleDate } from './dates.js';
import { deletePath, setPath } from './json-path.js';
import type { Prng } from './prng.js';
import { person, type Json } from './valid.js';

/**
 * One way of making a valid request invalid. `field` is the `param` a correct answer names; `markers` are pieces of
 * the generated value that must never appear in the answer (an answer that contains one echoed the value).
 */
export interface Mutation {
  body: Json;
  field: string;
  markers: string[];
  /** Replaces the JSON text of `DEEP` after serialising (nesting too deep to build as an object comfortably). */
  deep?: string;
}

export const DEEP = '__deeply_nested_garbage__';

type Version = 'v1' | 'v2';

const SUBSCRIBER = ['subscriber.firstName', 'subscriber.lastName', 'subscriber.dateOfBirth'];
/** Every string field of the intake contract, per version. */
export const STRING_FIELDS: Record<Version, readonly string[]> = {
  v2: [
    'id',
    'payerId',
    'discoveryId',
    'patient.firstName',
    'patient.lastName',
    'patient.dateOfBirth',
    'patient.state',
    'patient.memberId',
    'placeOfServiceCode',
    'specialtyCode',
    'providerGroupId',
    ...SUBSCRIBER,
    'version',
  ],
  v1: [
    'id',
    'payerId',
    'discoveryId',
    'patientId',
    'memberId',
    'npi',
    'taxonomyCode',
    'placeOfServiceCode',
    ...SUBSCRIBER,
    'version',
  ],
};
const FREE_TEXT: Record<Version, readonly string[]> = {
  v2: ['id', 'payerId', 'discoveryId', 'patient.firstName', 'patient.lastName', 'patient.memberId', ...SUBSCRIBER],
  v1: ['id', 'payerId', 'discoveryId', 'patientId', 'memberId', 'subscriber.firstName', 'subscriber.lastName'],
};
const REQUIRED: Record<Version, readonly string[]> = {
  v2: [
    'patient',
    'patient.firstName',
    'patient.lastName',
    'patient.dateOfBirth',
    'placeOfServiceCode',
    'specialtyCode',
  ],
  v1: ['patientId', 'npi'],
};
const DATES: Record<Version, readonly string[]> = {
  v2: ['patient.dateOfBirth', 'subscriber.dateOfBirth'],
  v1: ['subscriber.dateOfBirth'],
};

const versionOf = (body: Json): Version => (body.version === 'v1' ? 'v1' : 'v2');

/** What must not come back: a long value by a slice of it, a short one as the JSON string it would be echoed as. */
export function markersOf(value: unknown): string[] {
  if (typeof value === 'string') return [value.length >= 12 ? value.slice(0, 16) : JSON.stringify(value)];
  if (typeof value === 'number' && String(value).length >= 5) return [String(value)];
  return [];
}

/** A field inside `subscriber` is only the one at fault when the rest of the subscriber is valid. */
function prepare(body: Json, path: string, r: Prng): void {
  if (path.startsWith('subscriber.') && typeof body.subscriber !== 'object') body.subscriber = person(r);
}

function replace(body: Json, path: string, value: unknown, r: Prng): Mutation {
  prepare(body, path, r);
  setPath(body, path, value);
  return { body, field: path, markers: markersOf(value) };
}

export function missingField(r: Prng, body: Json, turn: number): Mutation {
  const version = versionOf(body);
  // payerId / memberId are required only without a discoveryId; the other of the two is made present, so the
  // absent one is the only fault.
  const choices = [...REQUIRED[version], 'payerId', ...(version === 'v1' ? ['memberId'] : []), ...SUBSCRIBER];
  const path = choices[turn % choices.length]!;
  prepare(body, path, r);
  if (path === 'payerId' || path === 'memberId') {
    delete body.discoveryId;
    body.payerId = r.pick(SEED_PAYERS).payerId;
    if (version === 'v1') body.memberId = `M${r.digits(8)}`;
  }
  deletePath(body, path);
  return { body, field: path, markers: [] };
}

export function wrongType(r: Prng, body: Json, turn: number): Mutation {
  const version = versionOf(body);
  const targets = [...STRING_FIELDS[version], ...(version === 'v2' ? ['patient'] : []), 'subscriber'];
  const path = targets[turn % targets.length]!;
  const token = r.token(14);
  const value = r.pick<unknown>([Number(r.digits(7)), true, false, null, [token], { value: token }, 12.5]);
  const mutation = replace(body, path, value, r);
  return typeof value === 'object' && value !== null ? { ...mutation, markers: [token] } : mutation;
}

export function badEnum(r: Prng, body: Json, turn: number): Mutation {
  const targets = versionOf(body) === 'v2' ? ['version', 'specialtyCode', 'patient.state'] : ['version'];
  const path = targets[turn % targets.length]!;
  const values: Record<string, () => string> = {
    version: () => r.pick(['v3', 'V2', 'v0', '2', 'v1.5', `v${r.token(6)}`]),
    specialtyCode: () => r.pick(['prc', 'Psy', 'XYZ', 'QQJ', `Z${r.token(9)}`]),
    'patient.state': () => r.pick(['ny', 'XX', 'QZ', 'New York', 'PR', 'GU']),
  };
  return replace(body, path, values[path]!(), r);
}

export function datePattern(r: Prng, body: Json, turn: number, make: (r: Prng) => string): Mutation {
  const targets = DATES[versionOf(body)];
  return replace(body, targets[turn % targets.length]!, make(r), r);
}

export const badDate = (r: Prng, body: Json, turn: number) => datePattern(r, body, turn, badDatePattern);
export const impossible = (r: Prng, body: Json, turn: number) => datePattern(r, body, turn, impossibleDate);
export const futureBirth = (r: Prng, body: Json, turn: number) => datePattern(r, body, turn, futureDate);

/** Over 2 KB: more than Temporal takes in a search attribute, more than any name or id needs. */
export function overLong(r: Prng, body: Json, turn: number): Mutation {
  const targets = STRING_FIELDS[versionOf(body)];
  const path = targets[turn % targets.length]!;
  const head = r.token(16);
  // Half of the ids Temporal indexes are over 2,048 bytes but under 2,048 characters: a limit counted in characters
  // lets them through to Temporal.
  const multibyte = ['id', 'payerId', 'discoveryId'].includes(path) && r.chance(0.5);
  const value = multibyte ? head + 'é'.repeat(r.int(1025, 1900)) : head + r.token(r.int(2049, 6000) - head.length);
  return { ...replace(body, path, value, r), markers: [head] };
}

/** A UTF-16 surrogate without its partner: not valid Unicode, not encodable as UTF-8. */
export function loneSurrogate(r: Prng, body: Json, turn: number): Mutation {
  const targets = FREE_TEXT[versionOf(body)];
  const path = targets[turn % targets.length]!;
  const a = r.token(10);
  const b = r.token(10);
  const value = r.pick([`${a}\ud800${b}`, `${a}\udfff`, `\udc00${a}`, `${a}\ud83d`, `${a}\ude00\ud83d${b}`]);
  return { ...replace(body, path, value, r), markers: [a, ...(value.includes(b) ? [b] : [])] };
}

function garbage(r: Prng, depth: number, token: string): unknown {
  if (depth === 0) return r.pick<unknown>([token, Number(r.digits(6)), null, true, { [token]: [] }]);
  const children = Array.from({ length: r.int(1, 3) }, () => garbage(r, depth - 1, token));
  return r.chance(0.5) ? children : Object.fromEntries(children.map((child, i) => [`k${i}`, child]));
}

/** Arrays and objects where a string or an object belongs, some of them thousands of levels deep. */
export function nestedGarbage(r: Prng, body: Json, turn: number): Mutation {
  const version = versionOf(body);
  const targets = [...STRING_FIELDS[version], ...(version === 'v2' ? ['patient'] : []), 'subscriber'];
  const path = targets[turn % targets.length]!;
  const token = r.token(14);
  if (!r.chance(0.2)) return { ...replace(body, path, garbage(r, r.int(2, 6), token), r), markers: [token] };
  const depth = r.int(1000, 4000);
  const deep = r.chance(0.5)
    ? '['.repeat(depth) + JSON.stringify(token) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + JSON.stringify(token) + '}'.repeat(depth);
  return { ...replace(body, path, DEEP, r), markers: [token], deep };
}

/** Bodies that are not a JSON object: other JSON values, broken JSON, nothing at all. */
export function nonObjectBody(r: Prng, valid: Json): { text: string; markers: string[] } {
  const token = r.token(14);
  const text = r.pick([
    '[]',
    JSON.stringify([valid]),
    JSON.stringify(`${token} ${JSON.stringify(valid)}`),
    r.digits(9),
    'true',
    'null',
    '',
    `{"id": "${token}", "patient": {`,
    `{"id":"${token}",}`,
    `${token}`,
  ]);
  return { text, markers: text.includes(token) ? [token] : [] };
}
