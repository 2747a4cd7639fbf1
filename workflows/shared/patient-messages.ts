import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  Appointment,
  CancelAppointment,
  MarkChangesSeen,
  PatientView,
  RefreshCoverage,
  RescheduleAppointment,
  ScheduleAppointment,
} from './patient-types.js';

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
