import { z } from 'zod';
import { IntakeRequestV2, PlaceOfServiceCode, SpecialtyCode, Uuid } from '../contract/index.js';
import { isWellFormedText } from '../contract/verification-intake.js';
import { isTimeZone } from './visit-day.js';

/*
 * An appointment's fields as practices send them (issue 35), one home for the intake API's bodies and the schedule
 * uploads. The practice's references (patient, appointment) are identifiers HIPAA protects: bodies and files only,
 * never a URL, an id or a log line.
 */

export const PatientRef = z
  .string()
  .min(1)
  .max(100)
  .refine(isWellFormedText, 'must be well-formed Unicode')
  .describe("The practice's own patient reference (e.g. its medical record number): in bodies only");
export const AppointmentRef = z
  .string()
  .min(1)
  .max(100)
  .refine(isWellFormedText, 'must be well-formed Unicode')
  .describe("The practice's own appointment reference: the same reference of the same patient is the same appointment");
export const DateOfService = z.iso.date().describe('YYYY-MM-DD, in `timeZone`');
/** `HH:MM`, 24-hour: the service takes no time, so only the product reads it (the day's order, the page). */
export const StartTime = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'expected a time as HH:MM (24-hour)')
  .describe('HH:MM, 24-hour, the visit’s local start in `timeZone`');
export const TimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, 'expected an IANA time zone such as America/New_York')
  .describe('The practice’s IANA time zone (default UTC): checks are timed from 00:00 of the visit’s day there');

/** What books a visit: the patient, the date and what the verification asks (`POST /appointments` less `tenant`). */
export const AppointmentFields = {
  patientRef: PatientRef,
  patient: IntakeRequestV2.shape.patient,
  payerId: IntakeRequestV2.shape.payerId,
  dateOfService: DateOfService,
  startTime: StartTime.optional(),
  timeZone: TimeZone.optional(),
  specialtyCode: SpecialtyCode,
  placeOfServiceCode: PlaceOfServiceCode,
  providerGroupId: Uuid.optional(),
};
