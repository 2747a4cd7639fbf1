import { z } from 'zod';
import { patientFieldsOfAll } from '../audit/patient-fields.js';
import { firstInvalidParam } from '../contract/errors.js';
import { PLAIN } from '../contract/issue-words.js';
import {
  IntakeFileError,
  parseCsvTable,
  parseJsonlRequests,
  uploadText,
  type IntakeFormat,
} from '../intake-files/read-requests.js';
import { AppointmentFields, AppointmentRef } from '../patients/appointment-fields.js';
import { cellsToAppointment, UPLOAD_COLUMNS } from './columns.js';

/** Rows one upload takes at most: a week of a large practice's schedule, with room. */
export const MAX_UPLOAD_ROWS = 20_000;

/** One appointment of an upload, as validated. */
export const UploadedAppointment = z.strictObject({ appointmentRef: AppointmentRef, ...AppointmentFields });
export type UploadedAppointment = z.infer<typeof UploadedAppointment>;

/** A row of the file: its appointment, or the field that is wrong (named, never its value). */
export interface UploadRow {
  row: number;
  line: number;
  appointment?: UploadedAppointment;
  problem?: { param: string; message: string };
}

/** The file as a whole cannot be read: the message names the problem (a line, a limit), never a value. */
export class AppointmentUploadError extends Error {
  override name = 'AppointmentUploadError';
}

/**
 * The rows of a schedule upload, CSV (`UPLOAD_COLUMNS`) or JSONL (one `POST /appointments` body with `appointmentRef`
 * a line), read as the verification files are (src/intake-files): UTF-8, rows and lines numbered for people, each
 * row validated, and a reference given twice refused at its second row, so one file never books a visit twice.
 */
export function readAppointmentUpload(bytes: Uint8Array, format: IntakeFormat): UploadRow[] {
  const text = uploadText(bytes, (message) => new AppointmentUploadError(message));
  let raw: { row: number; line: number; value?: unknown; problem?: UploadRow['problem'] }[];
  try {
    raw =
      format === 'csv'
        ? parseCsvTable(text, UPLOAD_COLUMNS).map(({ cells, ...at }) =>
            cells === undefined ? at : { ...at, value: cellsToAppointment(cells) },
          )
        : parseJsonlRequests(text).map(({ request, ...at }) => ({ ...at, value: request }));
  } catch (err) {
    if (err instanceof IntakeFileError) throw new AppointmentUploadError(err.message);
    throw err;
  }
  if (raw.length === 0) throw new AppointmentUploadError('the file holds no appointments (a header and no rows?)');
  if (raw.length > MAX_UPLOAD_ROWS) {
    throw new AppointmentUploadError(`the file holds ${raw.length} rows; an upload takes at most ${MAX_UPLOAD_ROWS}`);
  }
  const seen = new Map<string, number>();
  return raw.map(({ value, problem, ...at }): UploadRow => {
    if (problem) return { ...at, problem };
    const parsed = UploadedAppointment.safeParse(value, PLAIN);
    if (!parsed.success) {
      return { ...at, problem: { param: firstInvalidParam(parsed.error), message: messageOf(parsed.error) } };
    }
    const key = JSON.stringify([parsed.data.patientRef, parsed.data.appointmentRef]);
    const first = seen.get(key);
    if (first !== undefined) {
      return { ...at, problem: { param: 'appointmentRef', message: `the same appointment as row ${first}` } };
    }
    seen.set(key, at.row);
    return { ...at, appointment: parsed.data };
  });
}

/** What was expected, in plain words (`PLAIN`), never the value received (patient data). */
const messageOf = (error: z.ZodError) => error.issues[0]?.message ?? 'invalid';

/** What an upload discloses, by field name, for its audit entry (the API's and the CLI's alike). */
export const uploadDisclosedFields = (rows: readonly UploadRow[]): string[] => [
  'patientRef',
  'appointmentRef',
  'dateOfService',
  ...patientFieldsOfAll(rows.map((r) => r.appointment)),
];
