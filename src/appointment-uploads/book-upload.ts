import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import pLimit from 'p-limit';
import { PatientRefusal } from '../../workflows/patient/patient.js';
import {
  DEFAULT_TIME_ZONE,
  appointmentIdOf,
  patientIdFor,
  readPatient,
  rescheduleAppointment,
  scheduleAppointment,
  visitDayHasPassed,
  type Patients,
} from '../patients/patients.js';
import { PastDateOfServiceError } from '../patients/errors.js';
import type { UploadedAppointment, UploadRow } from './read-upload.js';

/** Appointments booked at once: enough to keep a worker busy, few enough not to crowd out the front desk. */
export const UPLOAD_CONCURRENCY = 16;

/**
 * What became of a row. `booked`: a new appointment; `rescheduled`: it existed with another date, which moved;
 * `unchanged`: it existed with this date; `rejected`: the row or the patient refused it (`param` names the field);
 * `failed`: Temporal did not answer, nothing is known to have changed, and uploading the file again is safe.
 */
export interface UploadRowResult {
  row: number;
  line: number;
  status: 'booked' | 'rescheduled' | 'unchanged' | 'rejected' | 'failed';
  patientId?: string;
  appointmentId?: string;
  param?: string;
  message?: string;
}

export type UploadCounts = Record<UploadRowResult['status'], number>;

export interface BookUploadOptions {
  tenant: string | undefined;
  concurrency?: number;
  /** Called as each row is done, in the order they finish (the row names its place in the file). */
  onRow?: (result: UploadRowResult) => void;
  /** Now, as the calendar of these patients counts it: a visit whose day has ended is refused. */
  now?: () => number;
}

/**
 * Books the rows of a schedule upload on their patients (decision 0052), a bounded number at once through
 * update-with-start. Every row's appointment id is derived from its reference, so the same file booked again, or
 * again after a crash midway, books nothing twice: an existing appointment is compared, moved when its date differs,
 * and left alone otherwise. An appointment missing from the file is not cancelled: a file is a day's or a week's
 * slice of the schedule, and only `DELETE /appointments/:id` cancels.
 */
export async function bookUpload(
  patients: Patients,
  rows: readonly UploadRow[],
  options: BookUploadOptions,
): Promise<{ counts: UploadCounts; results: UploadRowResult[] }> {
  const counts: UploadCounts = { booked: 0, rescheduled: 0, unchanged: 0, rejected: 0, failed: 0 };
  const results: UploadRowResult[] = [];
  const limit = pLimit(options.concurrency ?? UPLOAD_CONCURRENCY);
  const done = (result: UploadRowResult) => {
    counts[result.status]++;
    results.push(result);
    options.onRow?.(result);
  };
  await Promise.all(
    rows.map((row) =>
      limit(async () => {
        const at = { row: row.row, line: row.line };
        if (row.problem || !row.appointment) {
          return done({ ...at, status: 'rejected', ...(row.problem ?? { param: 'body', message: 'invalid' }) });
        }
        done({ ...at, ...(await bookRow(patients, row.appointment, options)) });
      }),
    ),
  );
  results.sort((a, b) => a.row - b.row);
  return { counts, results };
}

async function bookRow(
  patients: Patients,
  row: UploadedAppointment,
  options: BookUploadOptions,
): Promise<Omit<UploadRowResult, 'row' | 'line'>> {
  const timeZone = row.timeZone ?? DEFAULT_TIME_ZONE;
  if (visitDayHasPassed(patients, row.dateOfService, timeZone, options.now?.())) {
    return { status: 'rejected', param: 'dateOfService', message: new PastDateOfServiceError().message };
  }
  const patientId = patientIdFor(patients, options.tenant, row.patientRef);
  const appointmentId = appointmentIdOf(patients.idKey, patientId, row.appointmentRef);
  const ids = { patientId, appointmentId };
  try {
    await scheduleAppointment(patients, { ...row, tenant: options.tenant });
    return { status: 'booked', ...ids };
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal === undefined) return { status: 'failed', ...ids, message: failureMessage(err) };
    if (refusal.type !== PatientRefusal.Exists) return { status: 'rejected', ...ids, ...refusal.said };
  }
  // The appointment exists: booked by an earlier upload of this file (or an earlier attempt of this one).
  try {
    const held = (await readPatient(patients, patientId)).appointments.find((a) => a.appointmentId === appointmentId);
    if (held?.status === 'cancelled') {
      return { status: 'rejected', ...ids, param: 'appointmentRef', message: 'the appointment is cancelled' };
    }
    const sameTime = row.startTime === undefined || row.startTime === held?.startTime;
    if (held === undefined || (held.dateOfService === row.dateOfService && held.timeZone === timeZone && sameTime)) {
      return { status: 'unchanged', ...ids };
    }
    await rescheduleAppointment(patients, appointmentId, {
      dateOfService: row.dateOfService,
      timeZone,
      ...(row.startTime !== undefined ? { startTime: row.startTime } : {}),
    });
    return { status: 'rescheduled', ...ids };
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal !== undefined) return { status: 'rejected', ...ids, ...refusal.said };
    return { status: 'failed', ...ids, message: failureMessage(err) };
  }
}

/** The patient's refusal of an update (its type and the field it names), or undefined for any other failure. */
function refusalOf(err: unknown): { type: string; said: { param: string; message: string } } | undefined {
  if (!(err instanceof WorkflowUpdateFailedError) || !(err.cause instanceof ApplicationFailure)) return undefined;
  const [detail] = err.cause.details ?? [];
  const param = (detail as { param?: unknown } | undefined)?.param;
  return {
    type: err.cause.type ?? 'refused',
    said: { param: typeof param === 'string' ? param : 'body', message: err.cause.message },
  };
}

/** Names the kind of failure only: a Temporal error's message can quote what it was sent. */
const failureMessage = (err: unknown) =>
  `not booked (${err instanceof Error ? err.name : 'error'}): uploading the file again is safe`;
