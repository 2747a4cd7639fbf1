import { z } from 'zod';
import { RecordedVerificationPatient } from '../../src/contract/index.js';
import {
  AppointmentFields,
  DateOfService,
  PatientRef,
  StartTime,
  TimeZone,
} from '../../src/patients/appointment-fields.js';
import { APPOINTMENT_ID_PATTERN } from '../../src/patients/patients.js';
import { PATIENT_ID_PATTERN } from '../../src/patients/patient-id.js';
import { TenantSchema } from '../../src/temporal/tenant.js';
import { COVERAGE_CHANGE_KINDS } from '../../workflows/patient/patient.js';
import { OUTCOMES } from '../../workflows/shared/stages.js';

/*
 * The patients' and appointments' bodies and answers (issue 35). Bodies are strict: an unknown field is refused by
 * name, never dropped. The practice's patient reference travels in bodies only, never in a URL (a medical record
 * number is an identifier HIPAA protects); URLs carry the opaque ids the product assigns.
 */

export const PatientIdParams = z.object({
  patientId: z.string().regex(PATIENT_ID_PATTERN, 'expected a patient id (pt_…)').describe('`pt_<hex>`'),
});
export const AppointmentIdParams = z.object({
  appointmentId: z.string().regex(APPOINTMENT_ID_PATTERN, 'expected an appointment id (apt_…)'),
});

export const PatientLookupRequest = z
  .strictObject({ patientRef: PatientRef, tenant: TenantSchema.optional() })
  .meta({ id: 'PatientLookupRequest', examples: [{ patientRef: 'MRN-0042' }] });
export const PatientLookupResponse = z.object({ patientId: z.string() }).meta({ id: 'PatientLookupResponse' });

export const NewAppointmentRequest = z.strictObject({ ...AppointmentFields, tenant: TenantSchema.optional() }).meta({
  id: 'NewAppointmentRequest',
  examples: [
    {
      patientRef: 'MRN-0042',
      patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1985-12-10', memberId: 'M1234567' },
      payerId: '60054',
      dateOfService: '2026-12-14',
      startTime: '09:30',
      timeZone: 'America/Chicago',
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    },
  ],
});

export const RescheduleRequest = z
  .strictObject({ dateOfService: DateOfService, timeZone: TimeZone.optional(), startTime: StartTime.optional() })
  .meta({ id: 'RescheduleRequest', examples: [{ dateOfService: '2026-12-14', timeZone: 'America/Chicago' }] });

/** An instant in an answer: ISO 8601 in UTC (`2026-12-11T06:00:00.000Z`), as the service gives its own. */
const Instant = z.iso.datetime();

const Check = z.object({
  at: Instant.describe('When the check falls (or fell) due'),
  reuseWithinSeconds: z.number(),
  state: z.enum(['waiting', 'verified', 'reused', 'skipped']),
  verificationWorkflowId: z.string().optional(),
});

export const AppointmentResponse = z
  .object({
    appointmentId: z.string(),
    status: z.enum(['scheduled', 'cancelled']),
    dateOfService: z.string().describe('YYYY-MM-DD'),
    startTime: StartTime.optional(),
    timeZone: z.string(),
    dayStartsAt: Instant.describe('00:00 of `dateOfService` in `timeZone`'),
    payerId: z.string().optional(),
    specialtyCode: z.string(),
    placeOfServiceCode: z.string(),
    providerGroupId: z.string().optional(),
    checks: z.array(Check),
  })
  .meta({ id: 'Appointment' });

export const BookedAppointmentResponse = z
  .object({ patientId: z.string(), appointment: AppointmentResponse })
  .meta({ id: 'BookedAppointment' });

const CoverageEntry = z.object({
  at: Instant.describe('When the verification ended'),
  outcome: z.enum(OUTCOMES),
  coverage: z.enum(['covered', 'no-coverage', 'failed']),
  payerId: z.string().optional(),
  memberId: z.string().optional(),
  verificationId: z.string().optional(),
  workflowId: z.string(),
  appointmentId: z.string().optional(),
});

/** What a coverage change says, in the Changes list and in its `coverage.changed` event: identifiers and kinds only. */
export const CoverageChangeFields = z.object({
  changeId: z.string(),
  kinds: z.array(z.enum(COVERAGE_CHANGE_KINDS)),
  workflowId: z.string(),
  previousWorkflowId: z.string(),
  verificationId: z.string().optional(),
  payerId: z.string().optional(),
  previousPayerId: z.string().optional(),
});

export const CoverageChangeResponse = CoverageChangeFields.extend({
  at: Instant.describe('When the change was found'),
  seenAt: Instant.optional().describe('When it was marked seen: until then it is on the Changes list'),
}).meta({ id: 'CoverageChange' });

export const PatientResponse = z
  .object({
    patientId: z.string(),
    tenant: z.string(),
    patient: RecordedVerificationPatient.optional().describe('As held: the date of birth in the service’s MM/DD/YYYY'),
    appointments: z.array(AppointmentResponse),
    timeline: z.array(CoverageEntry),
    changes: z.array(CoverageChangeResponse),
    checksStarted: z.number(),
  })
  .meta({ id: 'Patient' });
