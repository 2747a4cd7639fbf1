import { createHmac, randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import type { VerificationPatient } from '../contract/index.js';
import type { BlindIndexKeys } from '../blind-index/keys.js';
import { indexTokens } from '../blind-index/tokens.js';
import { DEFAULT_EVENT_TENANT } from '../../workflows/shared/search-attributes.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import {
  cancelAppointmentUpdate,
  patientQuery,
  rescheduleAppointmentUpdate,
  scheduleAppointmentUpdate,
} from '../../workflows/patient/patient.js';
import type { Appointment, AppointmentDetails, CheckPolicy, PatientView } from '../../workflows/patient/patient.js';
import { lanePriority } from '../../workflows/shared/priority.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { startMetadata } from '../../workflows/shared/start-metadata.js';
import type { Timing } from '../../workflows/shared/timing.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { patientWorkflow } from '../../workflows/patient/index.js';
import { PastDateOfServiceError } from './errors.js';
import { patientIdOf } from './patient-id.js';
import { dayStartsAt } from './visit-day.js';
import type { PayerNamesNow } from '../payers/payer-names.js';

/** What the patients' clients (intake API, CLI, tests) share: where patients run and how their ids are made. */
export interface Patients {
  client: Client;
  taskQueue: string;
  /** PATIENT_ID_KEY: the HMAC key of patient ids. */
  idKey: Buffer;
  /** Check offsets and bounds of new patients (tests shorten them); the workflow's defaults otherwise. */
  policy?: Partial<CheckPolicy>;
  /** Waiting times of the verifications patients start (tests shorten them). */
  verificationTiming?: Partial<Timing>;
  /**
   * When a date of service starts (epoch ms): its 00:00 in its zone, unless a benchmark compresses time (decision
   * 0053). The workflow only ever sees the result.
   */
  calendar?: (dateOfService: string, timeZone: string) => number;
  /**
   * The patient search index's keys: a patient is booked with its keyed hashes, which it and every verification it
   * starts carry, so Find finds a patient booked by appointment (none without keys).
   */
  blindIndex?: BlindIndexKeys;
  /** Payer names known now (src/payers): the checks' verifications show the visit's payer by name in Temporal UI. */
  payerNames?: PayerNamesNow;
}

export const DEFAULT_TIME_ZONE = 'UTC';

/** The tenant a patient belongs to: its caller's, `default` for an install without tenants. */
export const patientTenant = (tenant: string | undefined) => tenant ?? DEFAULT_EVENT_TENANT;

/** The patient a tenant's reference names (whether it exists or not). */
export const patientIdFor = (patients: Patients, tenant: string | undefined, patientRef: string) =>
  patientIdOf(patients.idKey, patientTenant(tenant), patientRef);

/** An appointment's id names its patient (an opaque id too), so `PUT`/`DELETE /appointments/:id` need nothing else. */
export const appointmentIdFor = (patientId: string) =>
  `apt_${patientId.slice('pt_'.length)}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
/**
 * The appointment a practice's own reference names (decision 0052): an HMAC under the patient id key, so the same
 * reference of the same patient, uploaded again, is the same appointment, and the id reveals nothing of it.
 */
export const appointmentIdOf = (idKey: Buffer, patientId: string, appointmentRef: string) =>
  `apt_${patientId.slice('pt_'.length)}_${createHmac('sha256', idKey).update('appointment\u0000').update(patientId).update('\u0000').update(appointmentRef).digest('hex').slice(0, 16)}`;
export const APPOINTMENT_ID_PATTERN = /^apt_([0-9a-f]{32})_[0-9a-f]{16}$/;
export const patientOfAppointment = (appointmentId: string) =>
  `pt_${APPOINTMENT_ID_PATTERN.exec(appointmentId)?.[1] ?? ''}`;

export interface NewAppointment {
  tenant: string | undefined;
  patientRef: string;
  patient: VerificationPatient;
  dateOfService: string;
  /** `HH:MM`, the visit's local start (validated at the edge: `StartTime`). */
  startTime?: string;
  timeZone?: string;
  payerId?: string;
  specialtyCode: AppointmentDetails['specialtyCode'];
  placeOfServiceCode: string;
  providerGroupId?: string;
  /** The practice's own reference of the visit: the appointment's id is derived from it (else a random one). */
  appointmentRef?: string;
}

/** The start of a visit's day as these patients count days. */
export const visitDayStart = (patients: Patients, dateOfService: string, timeZone: string) =>
  (patients.calendar ?? dayStartsAt)(dateOfService, timeZone);

const DAY_MS = 86_400_000;

/** True once a visit's day has ended in its zone (as these patients count days): it can no longer be booked. */
export const visitDayHasPassed = (patients: Patients, dateOfService: string, timeZone: string, now = Date.now()) =>
  visitDayStart(patients, dateOfService, timeZone) + DAY_MS <= now;

/**
 * Refuses a visit whose day has passed (PastDateOfServiceError): what a person or a system books is checked at the edge
 * (the intake API, the upload). The library books what it is given, so a test can stand a patient in its past.
 */
export function refusePastVisit(patients: Patients, dateOfService: string, timeZone = DEFAULT_TIME_ZONE): void {
  if (visitDayHasPassed(patients, dateOfService, timeZone)) throw new PastDateOfServiceError();
}

/**
 * Books an appointment on its patient, starting the patient on its first (update-with-start: the update reaches the
 * running patient, or the one it starts). Its refusals (an unknown payer, too many appointments) are the update's; a
 * day that has passed is the caller's to refuse (`refusePastVisit`).
 */
export async function scheduleAppointment(patients: Patients, request: NewAppointment) {
  const tenant = patientTenant(request.tenant);
  const patientId = patientIdFor(patients, request.tenant, request.patientRef);
  const timeZone = request.timeZone ?? DEFAULT_TIME_ZONE;
  const payerName = request.payerId ? patients.payerNames?.nameNow(request.payerId) : undefined;
  const appointment: AppointmentDetails = {
    dateOfService: request.dateOfService,
    timeZone,
    dayStartsAt: visitDayStart(patients, request.dateOfService, timeZone),
    specialtyCode: request.specialtyCode,
    placeOfServiceCode: request.placeOfServiceCode,
    ...(request.payerId ? { payerId: request.payerId } : {}),
    ...(payerName ? { payerName } : {}),
    ...(request.providerGroupId ? { providerGroupId: request.providerGroupId } : {}),
    ...(request.startTime ? { startTime: request.startTime } : {}),
  };
  const searchAttributes: SearchAttributePair[] =
    tenant === DEFAULT_EVENT_TENANT ? [] : [{ key: Tenant, value: tenant }];
  const start = new WithStartWorkflowOperation<typeof patientWorkflow>(WorkflowType.patient, {
    workflowId: patientWorkflowId(patientId),
    taskQueue: patients.taskQueue,
    args: [
      {
        patientId,
        tenant,
        ...(patients.policy ? { policy: patients.policy } : {}),
        ...(patients.verificationTiming ? { verificationTiming: patients.verificationTiming } : {}),
      },
    ],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: searchAttributes,
    priority: lanePriority('bulk', tenant === DEFAULT_EVENT_TENANT ? undefined : tenant),
    ...startMetadata('Patient', { tenant }),
  });
  const index = patients.blindIndex && indexTokens(patients.blindIndex, request.tenant, request.patient);
  const held: Appointment = await patients.client.workflow.executeUpdateWithStart(scheduleAppointmentUpdate, {
    args: [
      {
        appointmentId:
          request.appointmentRef === undefined
            ? appointmentIdFor(patientId)
            : appointmentIdOf(patients.idKey, patientId, request.appointmentRef),
        patient: request.patient,
        appointment,
        ...(index?.length ? { index } : {}),
      },
    ],
    startWorkflowOperation: start,
  });
  return { patientId, appointment: held };
}

export async function rescheduleAppointment(
  patients: Patients,
  appointmentId: string,
  change: { dateOfService: string; timeZone?: string; startTime?: string },
): Promise<Appointment> {
  const timeZone = change.timeZone ?? DEFAULT_TIME_ZONE;
  const handle = patients.client.workflow.getHandle(patientWorkflowId(patientOfAppointment(appointmentId)));
  return handle.executeUpdate(rescheduleAppointmentUpdate, {
    args: [
      {
        appointmentId,
        dateOfService: change.dateOfService,
        timeZone,
        dayStartsAt: visitDayStart(patients, change.dateOfService, timeZone),
        ...(change.startTime !== undefined ? { startTime: change.startTime } : {}),
      },
    ],
  });
}

export async function cancelAppointment(patients: Patients, appointmentId: string): Promise<Appointment> {
  const handle = patients.client.workflow.getHandle(patientWorkflowId(patientOfAppointment(appointmentId)));
  return handle.executeUpdate(cancelAppointmentUpdate, { args: [{ appointmentId }] });
}

export async function readPatient(patients: Patients, patientId: string): Promise<PatientView> {
  return patients.client.workflow.getHandle(patientWorkflowId(patientId)).query(patientQuery);
}
