import { z } from 'zod';
import { CallerId, PlaceOfServiceCode, SpecialtyCode, Uuid } from './common.js';
import { Subscriber, VerificationPatient } from './patient.js';
import { Npi, TaxonomyCode } from './verification.js';

/**
 * What an intake system hands the orchestrator for one patient: a service verification request (v2 by default, v1
 * when asked) whose payer or member id may still be unknown, with the `discoveryId` of the coverage lookup that will
 * tell them. The field names are the service's, so a validation error names the same `param` the service would.
 */
const Common = {
  id: CallerId.optional(),
  payerId: z.string().min(1).optional(),
  subscriber: Subscriber.optional(),
  discoveryId: z.string().min(1).optional(),
};

export const VerificationIntakeV2 = z.object({
  version: z.literal('v2'),
  ...Common,
  patient: VerificationPatient,
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

/** v2 is the default: a request without `version` is read as v2. */
function defaultVersion(value: unknown): unknown {
  const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
  return isRecord && !('version' in value) ? { ...value, version: 'v2' } : value;
}

export const VerificationIntake = z.preprocess(
  defaultVersion,
  z.discriminatedUnion('version', [VerificationIntakeV2, VerificationIntakeV1]).superRefine((intake, ctx) => {
    // Without a payer there is nothing to verify against, unless a discovery will find one.
    if (intake.payerId === undefined && intake.discoveryId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['payerId'], message: 'payerId or discoveryId is required' });
    }
    // v1 sends the member id itself; v2 carries it in the patient object, where it is optional.
    if (intake.version === 'v1' && intake.memberId === undefined && intake.discoveryId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['memberId'], message: 'memberId or discoveryId is required' });
    }
  }),
);

/** Input form: `version` may be left out (v2). */
export type VerificationIntakeInput = z.input<typeof VerificationIntake>;
export type VerificationIntake = z.output<typeof VerificationIntake>;
