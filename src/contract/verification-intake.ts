import { z } from 'zod';
import { CallerId, DATE_OF_BIRTH_PATTERN, PlaceOfServiceCode, RealDateOfBirth, SpecialtyCode, Uuid } from './common.js';
import { ISO_DATE_OF_BIRTH_PATTERN, serviceDateOfBirth } from './dates.js';
import { firstInvalidParam } from './errors.js';
import { PLAIN } from './issue-words.js';
import { RecordedSubscriber, RecordedVerificationPatient, Subscriber, VerificationPatient } from './patient.js';
import { Npi, TaxonomyCode } from './verification.js';

/**
 * What an intake system hands the orchestrator for one patient: a service verification request (v2 by default, v1
 * when asked) whose payer or member id may still be unknown, with the `discoveryId` of the coverage lookup that will
 * tell them. The field names are the service's, so a validation error names the same `param` the service would.
 *
 * Two schemas of one request:
 * - `VerificationIntake`, the shape: what a workflow reads back from its recorded input. It must never change what it
 *   accepts, or old histories stop replaying, and it must never read the clock.
 * - `IntakeRequest`, what the edges (intake API, CLI, intake files) accept: the shape plus the project's own limits
 *   (`INTAKE_LIMITS`), well-formed Unicode in every string, and dates of birth that exist and are not in the future
 *   (read against the real clock, which is why workflows never parse with it), given as ISO `YYYY-MM-DD` or the
 *   service's `MM/DD/YYYY` and parsed into the service's form. `validateIntake` runs it.
 */
const Common = {
  id: CallerId.optional(),
  payerId: z.string().min(1).optional(),
  subscriber: RecordedSubscriber.optional(),
  discoveryId: z.string().min(1).optional(),
};

export const VerificationIntakeV2 = z.object({
  version: z.literal('v2'),
  ...Common,
  patient: RecordedVerificationPatient,
  placeOfServiceCode: PlaceOfServiceCode,
  specialtyCode: SpecialtyCode,
  providerGroupId: Uuid.optional(),
});

export const VerificationIntakeV1 = z.object({
  version: z.literal('v1'),
  ...Common,
  patientId: z.string().min(1),
  memberId: z.string().min(1).optional(),
  npi: Npi,
  taxonomyCode: TaxonomyCode.optional(),
  placeOfServiceCode: PlaceOfServiceCode.optional(),
});

/** Any JSON object (not an array, not null): the contract checks shapes with zod, here as everywhere else. */
const JsonObject = z.looseObject({});

/** v2 is the default: a request without `version` is read as v2. */
function defaultVersion(value: unknown): unknown {
  return JsonObject.safeParse(value).success && !('version' in (value as object))
    ? { ...(value as object), version: 'v2' }
    : value;
}

type IntakeFields = z.output<typeof VerificationIntakeV2> | z.output<typeof VerificationIntakeV1>;

function requireOneOf(intake: IntakeFields, ctx: z.RefinementCtx): void {
  // Without a payer there is nothing to verify against, unless a discovery will find one.
  if (intake.payerId === undefined && intake.discoveryId === undefined) {
    ctx.addIssue({ code: 'custom', path: ['payerId'], message: 'payerId or discoveryId is required' });
  }
  // v1 sends the member id itself; v2 carries it in the patient object, where it is optional.
  if (intake.version === 'v1' && intake.memberId === undefined && intake.discoveryId === undefined) {
    ctx.addIssue({ code: 'custom', path: ['memberId'], message: 'memberId or discoveryId is required' });
  }
}

export const VerificationIntake = z.preprocess(
  defaultVersion,
  z.discriminatedUnion('version', [VerificationIntakeV2, VerificationIntakeV1]).superRefine(requireOneOf),
);

/** Input form: `version` may be left out (v2). */
export type VerificationIntakeInput = z.input<typeof VerificationIntake>;
export type VerificationIntake = z.output<typeof VerificationIntake>;

/**
 * The project's own maximum lengths (in UTF-16 code units, as JavaScript and zod count), on top of the spec's (caller
 * id 45). Identifiers stay within the sandbox's bound on path ids (100: payer, discovery and patient ids are path
 * parameters of the service) and far within Temporal's: a payer or discovery id becomes a search attribute (at most
 * 2,048 bytes as JSON; 100 characters are at most 602 even when every one is escaped as `\u00XX`) and part of a
 * workflow id (`discovery-<id>`, at most 1,000 bytes; 100 characters are at most 300 bytes of UTF-8). Names allow
 * 100 characters, more than the X12 eligibility transactions payers use (35 first, 60 last).
 */
export const INTAKE_LIMITS = {
  callerId: 45,
  identifier: 100,
  name: 100,
} as const;

/** A lone UTF-16 surrogate: not a character, not encodable as UTF-8, refused by Temporal's gRPC (INTERNAL). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

const wellFormed = [isWellFormedText, 'must be well-formed Unicode (it holds a lone surrogate)'] as const;
const text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine(...wellFormed);

const IntakeCallerId = CallerId.refine(...wellFormed);
const IntakeIdentifier = text(INTAKE_LIMITS.identifier);
const IntakeName = text(INTAKE_LIMITS.name);

/**
 * A date of birth as an integrator sends it: ISO `YYYY-MM-DD` (every date field of the intake takes it) or the
 * service's `MM/DD/YYYY`. Parsed into the service's form, so the workflow's input, the index and the service see one.
 */
export const IntakeDateOfBirth = z
  .string()
  .regex(
    new RegExp(`${ISO_DATE_OF_BIRTH_PATTERN.source}|${DATE_OF_BIRTH_PATTERN.source}`),
    'expected a date as YYYY-MM-DD or MM/DD/YYYY',
  )
  .transform(serviceDateOfBirth)
  .pipe(RealDateOfBirth)
  .describe('YYYY-MM-DD (or the service’s MM/DD/YYYY); answered as MM/DD/YYYY');

// Strict: a field the intake does not know (a typo such as `memberID`, or data it must not take) is refused by name,
// never dropped, so a verification is never started without what the caller meant to send.
const IntakePatient = VerificationPatient.extend({
  firstName: IntakeName,
  lastName: IntakeName,
  dateOfBirth: IntakeDateOfBirth,
  memberId: IntakeIdentifier.optional(),
}).strict();
const IntakeSubscriber = Subscriber.extend({
  firstName: IntakeName,
  lastName: IntakeName,
  dateOfBirth: IntakeDateOfBirth,
}).strict();

const IntakeCommon = {
  id: IntakeCallerId.optional(),
  payerId: IntakeIdentifier.optional(),
  subscriber: IntakeSubscriber.optional(),
  discoveryId: IntakeIdentifier.optional(),
};

export const IntakeRequestV2 = VerificationIntakeV2.extend({ ...IntakeCommon, patient: IntakePatient }).strict();
export const IntakeRequestV1 = VerificationIntakeV1.extend({
  ...IntakeCommon,
  patientId: IntakeIdentifier,
  memberId: IntakeIdentifier.optional(),
}).strict();

/** What the edges accept: `VerificationIntake` within the limits above (the output has the same type). */
export const IntakeRequest = z.preprocess(
  defaultVersion,
  z.discriminatedUnion('version', [IntakeRequestV2, IntakeRequestV1]).superRefine(requireOneOf),
);

export type IntakeValidation = { ok: true; intake: VerificationIntake } | { ok: false; param: string; message: string };

/**
 * The intake's one validation, without HTTP or Temporal (the intake API, `start`, `batch` and fuzzers call it). A
 * refusal names the first offending field as a dotted `param`; its message says what was expected, never the value.
 */
export function validateIntake(value: unknown): IntakeValidation {
  const parsed = IntakeRequest.safeParse(value, PLAIN);
  if (parsed.success) return { ok: true, intake: parsed.data };
  return { ok: false, param: firstInvalidParam(parsed.error), message: parsed.error.issues[0]?.message ?? 'invalid' };
}
