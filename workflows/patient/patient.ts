import type { VerificationPatient, VerificationRequestV2 } from '../../src/contract/index.js';
import type { CoverageChange } from '../shared/event-catalogue.js';
import type { Outcome } from '../shared/stages.js';
import type { Timing } from '../shared/timing.js';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

/*
 * The patient entity (docs/integrating/patients.md): what its workflow takes, holds and answers. Its id and search
 * attributes carry no patient value (`patientId` is a keyed hash of tenant and the practice's reference, src/patients);
 * names, dates and member ids live only in payloads, which the codec encrypts.
 */

/** When the patient verifies ahead of a visit: offsets from the start of the visit's day (its 00:00, local). */
export interface CheckOffset {
  /** Seconds from the day's start: negative is before (−259,200: 3 days before), positive after (21,600: 06:00). */
  offsetSeconds: number;
  /** A check that ran this recently (seconds) is reused, not repeated. */
  reuseWithinSeconds: number;
}

export interface CheckPolicy {
  offsets: CheckOffset[];
  /** Timeline entries kept (the oldest are dropped): the state stays bounded. */
  timelineLimit: number;
  /** Coverage changes kept on the patient (the oldest are dropped). */
  changesLimit: number;
  /** Continue as new after this many history events (the server suggests it at 4,096 anyway). */
  continueAfterEvents: number;
  /** Past visit months kept for the `VisitMonths` search attribute (the refresh looks back at most this far). */
  pastVisitMonthsLimit?: number;
}

/** Default: 3 days before the visit, and the morning of the visit (06:00) unless a check ran in the last 24 h. */
export const DEFAULT_CHECK_POLICY: CheckPolicy = {
  offsets: [
    { offsetSeconds: -3 * 86_400, reuseWithinSeconds: 86_400 },
    { offsetSeconds: 6 * 3600, reuseWithinSeconds: 86_400 },
  ],
  timelineLimit: 24,
  changesLimit: 24,
  continueAfterEvents: 2000,
};

/** What the visit asks of a verification, and when it is. */
export interface AppointmentDetails {
  /** YYYY-MM-DD in `timeZone`. */
  dateOfService: string;
  /** IANA time zone of the practice (default UTC). */
  timeZone: string;
  /** Epoch ms of the start of `dateOfService` in `timeZone`: computed by the edge, so the workflow reads no zone data. */
  dayStartsAt: number;
  payerId?: string;
  specialtyCode: VerificationRequestV2['specialtyCode'];
  placeOfServiceCode: string;
  providerGroupId?: string;
  /** `HH:MM`, the visit's local start in `timeZone`, when the practice sends it (the front desk's day is in its order). */
  startTime?: string;
  /** The payer's name as the edge knew it when booking: what Temporal UI shows of the check's verification. */
  payerName?: string;
}

export interface AppointmentCheck {
  /** Epoch ms. */
  at: number;
  /** A check that ran this recently (seconds) answers this one. */
  reuseWithinSeconds: number;
  /** `skipped`: no payer to verify with when it fell due (the last answer found no coverage). */
  state: 'waiting' | 'verified' | 'reused' | 'skipped';
  /** The verification that answered it (run for it, or reused). */
  verificationWorkflowId?: string;
}

export interface Appointment extends AppointmentDetails {
  appointmentId: string;
  status: 'scheduled' | 'cancelled';
  checks: AppointmentCheck[];
}

/** A new appointment, with the patient's details as the practice sends them now (they replace the held ones). */
export interface ScheduleAppointment {
  appointmentId: string;
  patient: VerificationPatient;
  appointment: AppointmentDetails;
  /**
   * The patient's blind-index tokens (src/blind-index: keyed hashes, never a patient value), computed by the edge that
   * holds the index's keys: the patient and every verification it starts carry them as `PatientIndex`.
   */
  index?: string[];
}

export interface RescheduleAppointment {
  appointmentId: string;
  dateOfService: string;
  timeZone: string;
  dayStartsAt: number;
  /** The visit's new start (`HH:MM`); absent, the time it had stays. */
  startTime?: string;
}

export interface CancelAppointment {
  appointmentId: string;
}

export type CoverageState = 'covered' | 'no-coverage' | 'failed';

/** One verification of the patient, as the timeline keeps it. */
export interface CoverageEntry {
  /** Epoch ms it ended. */
  at: number;
  outcome: Outcome;
  coverage: CoverageState;
  payerId?: string;
  /** The member id a discovery found (patient data: payloads only). */
  memberId?: string;
  verificationId?: string;
  workflowId: string;
  /** The appointment it ran for; absent for a refresh. */
  appointmentId?: string;
  /** The refresh it ran for (its workflow id). */
  refreshId?: string;
}

/** `chg_<patient hex>_<hex>`: a change's id names its patient, so marking it seen needs nothing else. */
export const CHANGE_ID_PATTERN = /^chg_([0-9a-f]{32})_[0-9a-f]{16}$/;

export interface MarkChangesSeen {
  changeIds: string[];
}

/** What the patient carries across continue-as-new. */
export interface PatientState {
  patient?: VerificationPatient;
  appointments: Appointment[];
  timeline: CoverageEntry[];
  changes: CoverageChange[];
  /** Verifications started so far: the next one's workflow id is derived from it, so a retry never starts two. */
  checksStarted: number;
  /** Months (`YYYY-MM`) of visits whose day has passed: with the upcoming ones, the `VisitMonths` search attribute. */
  pastVisitMonths?: string[];
  /** What the latest appointment asked of a verification: a refresh, which has no visit, verifies the same way. */
  lastVisit?: Pick<AppointmentDetails, 'specialtyCode' | 'placeOfServiceCode' | 'providerGroupId'>;
  /** Refreshes taken (the latest few): a repeated message of one of them starts nothing. */
  refreshes?: string[];
  /** Refreshes asked for and not run yet, in order. */
  pendingRefreshes?: RefreshCoverage[];
  /** The blind-index tokens of the latest details (see `ScheduleAppointment.index`). */
  index?: string[];
  /** Copies of the patient written for the front desk's day so far (`PatientCopy.revision`). */
  copies?: number;
}

/** The monthly refresh's message to one active patient: verify once for this refresh (issue 35). */
export interface RefreshCoverage {
  /** The refresh's workflow id: the patient's verification id is derived from it. */
  refreshId: string;
  /** Where the refresh counts its verifications: the `BatchId` they carry. */
  batchId: string;
}

export interface PatientWorkflowInput {
  patientId: string;
  /** The tenant (a clinic id, never PHI); `default` when the install has none. */
  tenant: string;
  policy?: Partial<CheckPolicy>;
  /** Waiting times of the verifications it starts (tests shorten them). */
  verificationTiming?: Partial<Timing>;
  carried?: PatientState;
}

/** The `patient` query: everything the patient holds (patient data: shown to a person only through an audit). */
export interface PatientView extends PatientState {
  patientId: string;
  tenant: string;
}

/**
 * What the patient writes for the front desk's day (src/visits) after every change: everything it holds, numbered, so
 * a late write of an older copy never overwrites a newer one. Patient data: the writer seals it at rest.
 */
export interface PatientCopy extends PatientView {
  revision: number;
}

/** Why an appointment message is refused (the caller's 4xx): a type and the field, never a patient value. */
export const PatientRefusal = {
  NotFound: 'AppointmentNotFound',
  Cancelled: 'AppointmentCancelled',
  Exists: 'AppointmentExists',
  TooMany: 'TooManyAppointments',
  NoPayer: 'PayerUnknown',
} as const;

// The patient's messages (workflows/patient), defined once for the workflow and every client.

/** A new appointment (update-with-start creates the patient on its first): answers the appointment as held. */
export const scheduleAppointmentUpdate = defineUpdate<Appointment, [ScheduleAppointment]>('scheduleAppointment');
/** A new date of service: the checks move with it. Refused for an unknown or cancelled appointment. */
export const rescheduleAppointmentUpdate = defineUpdate<Appointment, [RescheduleAppointment]>('rescheduleAppointment');
/** Cancels an appointment: its waiting checks are dropped. Refused for an unknown appointment. */
export const cancelAppointmentUpdate = defineUpdate<Appointment, [CancelAppointment]>('cancelAppointment');
/** Takes changes off the Changes list: answers how many were unseen until now (0 for an unknown or seen one). */
export const markChangesSeenUpdate = defineUpdate<{ seen: number }, [MarkChangesSeen]>('markChangesSeen');
/** Everything the patient holds. */
export const patientQuery = defineQuery<PatientView>('patient');
/** The monthly refresh asks for one verification (a signal: the refresh counts results from visibility, not replies). */
export const refreshCoverageSignal = defineSignal<[RefreshCoverage]>('refreshCoverage');

export { COVERAGE_CHANGE_KINDS, type CoverageChange, type CoverageChangeKind } from '../shared/event-catalogue.js';
