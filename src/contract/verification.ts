import { z } from 'zod';
import { CallerId, PlaceOfServiceCode, SpecialtyCode, Uuid } from './common.js';
import { Subscriber, VerificationPatient } from './patient.js';

/**
 * The idempotency header's name is not shown in the spec; this is the project's default
 * (docs/decisions/0001-service-contract-gaps.md).
 */
export const DEFAULT_IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** The value of the idempotency header of `POST /v2/verifications`: a UUID v4, as the spec asks. */
export const IdempotencyKey = z.uuidv4();

/**
 * `POST /v2/verifications`. Sent with an idempotency header (its name is configuration:
 * docs/decisions/0001-service-contract-gaps.md).
 */
export const VerificationRequestV2 = z.object({
  patient: VerificationPatient,
  payerId: z.string().min(1),
  placeOfServiceCode: PlaceOfServiceCode,
  specialtyCode: SpecialtyCode,
  providerGroupId: Uuid.optional(),
  id: CallerId.optional(),
  subscriber: Subscriber.optional(),
});
export type VerificationRequestV2 = z.infer<typeof VerificationRequestV2>;

export const VerificationResponseV2 = z.object({ verificationId: Uuid, id: z.string().optional() });
export type VerificationResponseV2 = z.infer<typeof VerificationResponseV2>;

/** An NPI is ten digits. */
export const Npi = z.string().regex(/^\d{10}$/, 'expected a 10-digit NPI');
/** A provider taxonomy code is ten characters, e.g. 207Q00000X. */
export const TaxonomyCode = z.string().regex(/^[0-9A-Z]{9}X$/, 'expected a 10-character taxonomy code');

/**
 * `POST /v1/verifications` (legacy) as the project writes it. The spec does not show the field names of the NPI and
 * the taxonomy code; they are configuration (`ELIGIBILITY_V1_NPI_FIELD`, `ELIGIBILITY_V1_TAXONOMY_FIELD`), and
 * `v1WireSchema` / `toV1Wire` give the body as sent.
 */
export const VerificationRequestV1 = z.object({
  patientId: z.string().min(1),
  memberId: z.string().min(1),
  payerId: z.string().min(1),
  npi: Npi,
  taxonomyCode: TaxonomyCode.optional(),
  placeOfServiceCode: PlaceOfServiceCode.optional(),
  id: CallerId.optional(),
  subscriber: Subscriber.optional(),
});
export type VerificationRequestV1 = z.infer<typeof VerificationRequestV1>;

export interface V1FieldNames {
  npi: string;
  taxonomy: string;
}
export const DEFAULT_V1_FIELD_NAMES: V1FieldNames = { npi: 'npi', taxonomy: 'taxonomyCode' };

/** The v1 body as the service receives it, with the configured NPI and taxonomy field names. */
export function v1WireSchema(names: V1FieldNames) {
  const { npi: _npi, taxonomyCode: _taxonomy, ...rest } = VerificationRequestV1.shape;
  return z.object({ ...rest, [names.npi]: Npi, [names.taxonomy]: TaxonomyCode.optional() });
}

export function toV1Wire(request: VerificationRequestV1, names: V1FieldNames): Record<string, unknown> {
  const { npi, taxonomyCode, ...rest } = request;
  return { ...rest, [names.npi]: npi, ...(taxonomyCode === undefined ? {} : { [names.taxonomy]: taxonomyCode }) };
}

export const VerificationResponseV1 = z.object({ patientId: z.string().min(1), verificationId: Uuid });
export type VerificationResponseV1 = z.infer<typeof VerificationResponseV1>;
