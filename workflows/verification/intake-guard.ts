import type { VerificationIntake } from '../../src/contract/index.js';
import { isPlainObject } from '../shared/plain-object.js';

/**
 * The workflow's structural guard of its input. The edges (`startVerification`, behind the intake API, the CLI and
 * `batch`) validate with the contract before starting; this only catches a start that bypassed them (Temporal UI's
 * Start Workflow), cheaply and without zod. It checks what the workflow itself reads and what a person typing JSON
 * most likely gets wrong (a missing field, a date not in MM/DD/YYYY), naming the field as the contract would; patterns
 * and enums stay the contract's, checked by the client before anything is sent.
 *
 * Frozen on purpose: a running workflow replays through this code, so a contract change can never alter its path.
 * Changing a rule here changes the commands of recorded histories (test/histories/invalid-request.json): a new version.
 */

export type GuardResult = { ok: true; intake: VerificationIntake } | { ok: false; param: string; message: string };

type Rules = { required: readonly string[]; optional: readonly string[] };

const COMMON_OPTIONAL = ['id', 'payerId', 'discoveryId'] as const;
const SUBSCRIBER = ['subscriber.firstName', 'subscriber.lastName', 'subscriber.dateOfBirth'] as const;
const RULES: Record<VerificationIntake['version'], Rules> = {
  v2: {
    required: ['patient.firstName', 'patient.lastName', 'patient.dateOfBirth', 'placeOfServiceCode', 'specialtyCode'],
    optional: [...COMMON_OPTIONAL, 'patient.state', 'patient.memberId', 'providerGroupId'],
  },
  v1: {
    required: ['patientId', 'npi'],
    optional: [...COMMON_OPTIONAL, 'memberId', 'taxonomyCode', 'placeOfServiceCode'],
  },
};
/** The form of MM/DD/YYYY, month and day in range; whether the day exists is the contract's to say. */
const DATE_FORM = /^(0[1-9]|1[0-2])\/(0[1-9]|[12][0-9]|3[01])\/\d{4}$/;

function at(request: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (isPlainObject(value) ? value[key] : undefined), request);
}

/** The problem with one string field, if any. */
function fieldProblem(request: Record<string, unknown>, path: string, required: boolean): string | undefined {
  const value = at(request, path);
  if (value === undefined) return required ? 'required' : undefined;
  if (typeof value !== 'string' || value.length === 0) return 'expected a non-empty string';
  if (path.endsWith('dateOfBirth') && !DATE_FORM.test(value)) return 'expected MM/DD/YYYY';
  return undefined;
}

export function guardIntake(request: unknown): GuardResult {
  const refuse = (param: string, message: string): GuardResult => ({ ok: false, param, message });
  if (!isPlainObject(request)) return refuse('body', 'expected an object');
  // v2 is the default, as at the edges: a request without `version` is read as v2.
  const version = request.version ?? 'v2';
  if (version !== 'v1' && version !== 'v2') return refuse('version', 'expected "v1" or "v2"');
  if (version === 'v2' && !isPlainObject(request.patient)) return refuse('patient', 'expected an object');
  if (request.subscriber !== undefined && !isPlainObject(request.subscriber))
    return refuse('subscriber', 'expected an object');
  const { required, optional } = RULES[version];
  const fields: [string, boolean][] = [
    ...required.map((path): [string, boolean] => [path, true]),
    ...optional.map((path): [string, boolean] => [path, false]),
    ...(request.subscriber === undefined ? [] : SUBSCRIBER.map((path): [string, boolean] => [path, true])),
  ];
  for (const [path, isRequired] of fields) {
    const problem = fieldProblem(request, path, isRequired);
    if (problem) return refuse(path, problem);
  }
  // Without a payer there is nothing to verify against, unless a discovery will find one; v1 sends the member id.
  if (request.payerId === undefined && request.discoveryId === undefined) {
    return refuse('payerId', 'payerId or discoveryId is required');
  }
  if (version === 'v1' && request.memberId === undefined && request.discoveryId === undefined) {
    return refuse('memberId', 'memberId or discoveryId is required');
  }
  return { ok: true, intake: { ...request, version } as VerificationIntake };
}
