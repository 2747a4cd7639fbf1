import type { Appointment, CoverageChange, CoverageEntry, PatientView } from '../../workflows/patient/patient.js';

/*
 * The patients' answers with their instants as ISO 8601 (issue 62, N9): patients keep epoch milliseconds in their
 * state, and every answer of the API says a time one way, as the service does. Converted here, where answers leave.
 */

const iso = (epochMs: number) => new Date(epochMs).toISOString();

export const appointmentAnswer = (appointment: Appointment) => ({
  ...appointment,
  dayStartsAt: iso(appointment.dayStartsAt),
  checks: appointment.checks.map((check) => ({ ...check, at: iso(check.at) })),
});

export const changeAnswer = <C extends CoverageChange>({ seenAt, ...change }: C) => ({
  ...change,
  at: iso(change.at),
  ...(seenAt === undefined ? {} : { seenAt: iso(seenAt) }),
});

const entryAnswer = (entry: CoverageEntry) => ({ ...entry, at: iso(entry.at) });

export const patientAnswer = (view: PatientView) => ({
  ...view,
  appointments: view.appointments.map(appointmentAnswer),
  timeline: view.timeline.map(entryAnswer),
  changes: view.changes.map(changeAnswer),
});
