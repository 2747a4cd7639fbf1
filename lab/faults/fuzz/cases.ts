import {
  DEEP,
  badDate,
  badEnum,
  futureBirth,
  impossible,
  loneSurrogate,
  missingField,
  nestedGarbage,
  nonObjectBody,
  overLong,
  wrongType,
  type Mutation,
} from './invalid.js';
import { Prng } from './prng.js';
import { validV1, validV2, type Json } from './valid.js';

export const FUZZ_KINDS = [
  'valid v2',
  'valid v1',
  'missing required field',
  'wrong type',
  'bad enum',
  'bad date pattern',
  'impossible calendar date',
  'future date of birth',
  'over-long string',
  'lone surrogate',
  'nested garbage',
  'non-object body',
  'duplicate caller id',
] as const;
export type FuzzKind = (typeof FUZZ_KINDS)[number];

/** Share of each kind, in percent: about 40 % valid, the rest spread over the kinds of invalid. */
const WEIGHTS: Record<FuzzKind, number> = {
  'valid v2': 24,
  'valid v1': 16,
  'missing required field': 6,
  'wrong type': 6,
  'bad enum': 5,
  'bad date pattern': 5,
  'impossible calendar date': 5,
  'future date of birth': 5,
  'over-long string': 10,
  'lone surrogate': 6,
  'nested garbage': 4,
  'non-object body': 4,
  'duplicate caller id': 4,
};

export interface FuzzCase {
  index: number;
  kind: FuzzKind;
  /** The request body as sent (JSON text, or not JSON at all for some non-object bodies). */
  text: string;
  /** The caller id the body carries when it is a string: its workflow would be `verification-<callerId>`. */
  callerId?: string;
  /** The `param` a correct 400 names; undefined for valid requests and duplicates. */
  field?: string;
  markers: string[];
  /** Duplicate caller id: the index of the valid case whose id it repeats. */
  original?: number;
}

const isValid = (kind: FuzzKind) => kind === 'valid v2' || kind === 'valid v1';
export { isValid as isValidKind };

const MUTATIONS: Partial<Record<FuzzKind, (r: Prng, body: Json, turn: number) => Mutation>> = {
  'missing required field': missingField,
  'wrong type': wrongType,
  'bad enum': badEnum,
  'bad date pattern': badDate,
  'impossible calendar date': impossible,
  'future date of birth': futureBirth,
  'over-long string': overLong,
  'lone surrogate': loneSurrogate,
  'nested garbage': nestedGarbage,
};

function pickKind(r: Prng, index: number): FuzzKind {
  // The first cases go through every kind once, so even a short run covers each.
  if (index < FUZZ_KINDS.length) return FUZZ_KINDS[index]!;
  let roll = r.int(0, 99);
  for (const kind of FUZZ_KINDS) {
    roll -= WEIGHTS[kind];
    if (roll < 0) return kind;
  }
  return 'valid v2';
}

/** `count` requests from `seed`: the same seed gives the same requests (dates of birth "in the future" aside). */
export function generateCases(seed: number, count: number, idPrefix: string): FuzzCase[] {
  const r = new Prng(seed);
  const cases: FuzzCase[] = [];
  const validOnes: FuzzCase[] = [];
  const turns = new Map<FuzzKind, number>();
  for (let index = 0; index < count; index += 1) {
    const kind = pickKind(r, index);
    const turn = turns.get(kind) ?? 0;
    turns.set(kind, turn + 1);
    const id = `${idPrefix}-${index}`;
    const base = (r.chance(0.6) ? validV2 : validV1)(r, id);
    if (isValid(kind)) {
      const body = kind === 'valid v1' ? validV1(r, id) : validV2(r, id);
      const valid: FuzzCase = { index, kind, text: JSON.stringify(body), callerId: id, markers: [] };
      cases.push(valid);
      validOnes.push(valid);
    } else if (kind === 'duplicate caller id') {
      const original = r.pick(validOnes);
      // The same request again, or another patient under the same caller id: either way nothing new may start.
      const body = JSON.parse(original.text) as Json;
      if (r.chance(0.5) && typeof body.patient === 'object')
        body.patient = { ...(body.patient as Json), lastName: 'Other' };
      cases.push({
        index,
        kind,
        text: JSON.stringify(body),
        callerId: original.callerId!,
        markers: [],
        original: original.index,
      });
    } else if (kind === 'non-object body') {
      const { text, markers } = nonObjectBody(r, base);
      cases.push({ index, kind, text, field: 'body', markers });
    } else {
      const mutation = MUTATIONS[kind]!(r, base, turn);
      const text = JSON.stringify(mutation.body).replace(JSON.stringify(DEEP), mutation.deep ?? JSON.stringify(DEEP));
      const callerId = typeof mutation.body.id === 'string' && mutation.body.id !== DEEP ? mutation.body.id : undefined;
      cases.push({
        index,
        kind,
        text,
        field: mutation.field,
        markers: mutation.markers,
        ...(callerId ? { callerId } : {}),
      });
    }
  }
  return cases;
}
