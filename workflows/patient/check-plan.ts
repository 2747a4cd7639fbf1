import { latestAnswer } from './coverage-changes.js';
import type { Appointment, AppointmentCheck, CheckOffset, CoverageEntry } from './patient.js';

/*
 * When the patient verifies (issue 35): pure functions of its appointments and its timeline, so the workflow only
 * sleeps until the next one and the rules are tested without a server.
 */

const DAY_MS = 86_400_000;

/** The checks of a visit whose day starts at `dayStartsAt` (epoch ms), in time order. */
export function checksFor(dayStartsAt: number, offsets: readonly CheckOffset[]): AppointmentCheck[] {
  return offsets
    .map((o) => ({ at: dayStartsAt + o.offsetSeconds * 1000, reuseWithinSeconds: o.reuseWithinSeconds }))
    .sort((a, b) => a.at - b.at)
    .map((c) => ({ ...c, state: 'waiting' as const }));
}

export interface DueCheck {
  appointment: Appointment;
  check: AppointmentCheck;
}

/** The earliest waiting check of a scheduled appointment, if any. */
export function nextCheck(appointments: readonly Appointment[]): DueCheck | undefined {
  let next: DueCheck | undefined;
  for (const appointment of appointments) {
    if (appointment.status !== 'scheduled') continue;
    for (const check of appointment.checks) {
      if (check.state === 'waiting' && (next === undefined || check.at < next.check.at)) next = { appointment, check };
    }
  }
  return next;
}

/**
 * The verification that answers a check due at `now` without a new one: the latest that gave an answer (covered or
 * not; a failure answers nothing) within the check's reuse window.
 */
export function reusableEntry(
  timeline: readonly CoverageEntry[],
  now: number,
  reuseWithinSeconds: number,
): CoverageEntry | undefined {
  const last = latestAnswer(timeline);
  return last !== undefined && now - last.at <= reuseWithinSeconds * 1000 ? last : undefined;
}

/** True once the visit's day has ended: the appointment leaves the patient's list of upcoming ones. */
export const isPast = (appointment: Appointment, now: number): boolean => appointment.dayStartsAt + DAY_MS <= now;
