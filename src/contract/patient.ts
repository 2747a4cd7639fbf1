import { z } from 'zod';
import { DateOfBirth, PersonName, RealDateOfBirth, StateCode, Timestamp } from './common.js';

/** The legacy patient record of `GET /v1/patients/{patientId}`. */
export const LegacyPatient = z.object({
  patientId: z.string().min(1),
  firstName: PersonName,
  lastName: PersonName,
  dateOfBirth: DateOfBirth,
  state: StateCode,
  address: z.string(),
  created: Timestamp,
  updated: Timestamp,
});
export type LegacyPatient = z.infer<typeof LegacyPatient>;

const patientFields = {
  firstName: PersonName,
  lastName: PersonName,
  dateOfBirth: DateOfBirth,
  state: StateCode.optional(),
  memberId: z.string().min(1).optional(),
};

/**
 * The patient object of a v2 verification. Which of its fields are required is not shown in the spec: the project
 * requires the identity (names and date of birth) and leaves state and member id optional, since a member id is
 * often what a discovery is for. The date of birth must exist and not be in the future.
 */
export const VerificationPatient = z.object({ ...patientFields, dateOfBirth: RealDateOfBirth });
export type VerificationPatient = z.infer<typeof VerificationPatient>;

/** The subscriber when the patient is a dependent; all three fields required when it is given (spec gap). */
const subscriberFields = { firstName: PersonName, lastName: PersonName, dateOfBirth: DateOfBirth };
export const Subscriber = z.object({ ...subscriberFields, dateOfBirth: RealDateOfBirth });
export type Subscriber = z.infer<typeof Subscriber>;

/**
 * The same objects with the date pattern only, as workflows read them back from their recorded input: what they
 * accept never changes with the day a history is replayed.
 */
export const RecordedVerificationPatient = z.object(patientFields);
export const RecordedSubscriber = z.object(subscriberFields);
