import { ApplicationFailure } from '@temporalio/workflow';
import type {
  Appointment,
  CancelAppointment,
  CheckPolicy,
  CoverageChange,
  CoverageEntry,
  PatientState,
  RefreshCoverage,
  RescheduleAppointment,
  ScheduleAppointment,
} from './patient.js';
import { PatientRefusal } from './patient.js';
import { checksFor, isPast } from './check-plan.js';
import { coverageChanges, latestAnswer } from './coverage-changes.js';

/** Upcoming appointments one patient holds at most: a bound on its state, far above any real schedule. */
export const MAX_APPOINTMENTS = 50;
/** Refresh ids a patient remembers: a refresh repeats its message within hours, never a year later. */
const REFRESHES_KEPT = 12;
/** Past visit months kept by default: two years, beyond any look-back a refresh is configured with. */
const PAST_VISIT_MONTHS_KEPT = 24;

const refuse = (type: string, message: string, param: string) =>
  ApplicationFailure.create({ type, message, details: [{ param }], nonRetryable: true });

/**
 * What a patient holds and how its messages change it (issue 35): appointments with their checks, the coverage
 * timeline and the changes found. The workflow wires handlers to it and sleeps until its next check; `revision`
 * tells it that something moved.
 */
export class PatientBook {
  state: PatientState;
  revision = 0;

  constructor(
    carried: PatientState | undefined,
    private readonly policy: CheckPolicy,
  ) {
    this.state = carried ?? { appointments: [], timeline: [], changes: [], checksStarted: 0 };
  }

  validateSchedule(message: ScheduleAppointment): void {
    const existing = this.find(message.appointmentId);
    if (existing) throw refuse(PatientRefusal.Exists, 'the appointment exists', 'appointmentId');
    if (this.state.appointments.length >= MAX_APPOINTMENTS) {
      throw refuse(PatientRefusal.TooMany, `a patient holds at most ${MAX_APPOINTMENTS} appointments`, 'dateOfService');
    }
    if (message.appointment.payerId === undefined && this.knownPayer() === undefined) {
      throw refuse(PatientRefusal.NoPayer, 'required until a verification of the patient has named one', 'payerId');
    }
  }

  schedule(message: ScheduleAppointment): Appointment {
    this.state.patient = message.patient;
    if (message.index) this.state.index = message.index;
    const { specialtyCode, placeOfServiceCode, providerGroupId } = message.appointment;
    this.state.lastVisit = { specialtyCode, placeOfServiceCode, ...(providerGroupId ? { providerGroupId } : {}) };
    const appointment: Appointment = {
      appointmentId: message.appointmentId,
      ...message.appointment,
      status: 'scheduled',
      checks: checksFor(message.appointment.dayStartsAt, this.policy.offsets),
    };
    this.state.appointments.push(appointment);
    this.revision++;
    return appointment;
  }

  validateChange(message: RescheduleAppointment | CancelAppointment, reschedule: boolean): void {
    const appointment = this.find(message.appointmentId);
    if (!appointment) throw refuse(PatientRefusal.NotFound, 'no such appointment', 'appointmentId');
    if (reschedule && appointment.status === 'cancelled') {
      throw refuse(PatientRefusal.Cancelled, 'the appointment is cancelled', 'appointmentId');
    }
  }

  /** The new date's checks replace the waiting ones; checks already answered stay as the history of the visit. */
  reschedule(message: RescheduleAppointment): Appointment {
    const appointment = this.find(message.appointmentId)!;
    appointment.dateOfService = message.dateOfService;
    appointment.timeZone = message.timeZone;
    appointment.dayStartsAt = message.dayStartsAt;
    if (message.startTime !== undefined) appointment.startTime = message.startTime;
    appointment.checks = [
      ...appointment.checks.filter((c) => c.state !== 'waiting'),
      ...checksFor(message.dayStartsAt, this.policy.offsets),
    ];
    this.revision++;
    return appointment;
  }

  cancel(message: CancelAppointment): Appointment {
    const appointment = this.find(message.appointmentId)!;
    appointment.status = 'cancelled';
    appointment.checks = appointment.checks.filter((c) => c.state !== 'waiting');
    this.revision++;
    return appointment;
  }

  /** The payer of the patient's latest covered answer. */
  knownPayer(): string | undefined {
    const answer = latestAnswer(this.state.timeline);
    return answer?.coverage === 'covered' ? answer.payerId : undefined;
  }

  /** Adds a verification to the timeline; returns the change it makes, if any. */
  record(entry: CoverageEntry, changeId: string): CoverageChange | undefined {
    const previous = this.state.timeline.at(-1);
    const kinds = coverageChanges(this.state.timeline, entry);
    this.state.timeline = [...this.state.timeline, entry].slice(-this.policy.timelineLimit);
    if (kinds.length === 0 || previous === undefined) return undefined;
    const change: CoverageChange = {
      changeId,
      at: entry.at,
      kinds,
      workflowId: entry.workflowId,
      previousWorkflowId: previous.workflowId,
      ...(entry.verificationId ? { verificationId: entry.verificationId } : {}),
      ...(entry.payerId ? { payerId: entry.payerId } : {}),
      ...(previous.payerId ? { previousPayerId: previous.payerId } : {}),
    };
    this.state.changes = [...this.state.changes, change].slice(-this.policy.changesLimit);
    return change;
  }

  /** Marks the changes seen; returns how many were unseen. */
  markSeen(changeIds: readonly string[], now: number): number {
    let seen = 0;
    for (const change of this.state.changes) {
      if (change.seenAt === undefined && changeIds.includes(change.changeId)) {
        change.seenAt = now;
        seen++;
      }
    }
    return seen;
  }

  get unseen(): number {
    return this.state.changes.filter((c) => c.seenAt === undefined).length;
  }

  /** Drops the appointments whose day has passed: the state keeps upcoming ones only, and the months of past visits. */
  prune(now: number): void {
    const kept = this.state.appointments.filter((a) => !isPast(a, now) || a.checks.some((c) => c.state === 'waiting'));
    if (kept.length === this.state.appointments.length) return;
    const past = this.state.appointments.filter((a) => !kept.includes(a) && a.status === 'scheduled');
    const months = new Set([...(this.state.pastVisitMonths ?? []), ...past.map(visitMonth)]);
    const limit = this.policy.pastVisitMonthsLimit ?? PAST_VISIT_MONTHS_KEPT;
    this.state.pastVisitMonths = [...months].sort().slice(-limit);
    this.state.appointments = kept;
  }

  /** The months with a scheduled visit, past or upcoming: the `VisitMonths` search attribute. */
  visitMonths(): string[] {
    const scheduled = this.state.appointments.filter((a) => a.status === 'scheduled').map(visitMonth);
    return [...new Set([...(this.state.pastVisitMonths ?? []), ...scheduled])].sort();
  }

  /** Takes a refresh's message: false when this refresh was taken or asked for already (exactly once per refresh). */
  askRefresh(message: RefreshCoverage): boolean {
    const pending = this.state.pendingRefreshes ?? [];
    const known = (this.state.refreshes ?? []).includes(message.refreshId);
    if (known || pending.some((r) => r.refreshId === message.refreshId)) return false;
    this.state.pendingRefreshes = [...pending, message];
    this.revision++;
    return true;
  }

  /** The next refresh to run, marked taken before it runs: a repeat arriving meanwhile is refused. */
  takeRefresh(): RefreshCoverage | undefined {
    const [next, ...rest] = this.state.pendingRefreshes ?? [];
    if (next === undefined) return undefined;
    this.state.pendingRefreshes = rest;
    this.state.refreshes = [...(this.state.refreshes ?? []), next.refreshId].slice(-REFRESHES_KEPT);
    return next;
  }

  /** The payer a refresh verifies with: the latest answer's, else the latest appointment's. */
  refreshPayer(): string | undefined {
    const latest = this.state.timeline.at(-1)?.payerId;
    const booked = [...this.state.appointments].reverse().find((a) => a.payerId !== undefined)?.payerId;
    return this.knownPayer() ?? booked ?? latest;
  }

  private find(appointmentId: string): Appointment | undefined {
    return this.state.appointments.find((a) => a.appointmentId === appointmentId);
  }
}

/** A visit's month in the practice's own calendar (its date of service), no zone data needed. */
const visitMonth = (appointment: Appointment): string => appointment.dateOfService.slice(0, 7);
