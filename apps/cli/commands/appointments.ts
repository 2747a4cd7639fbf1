import type { Command } from 'commander';
import { TenantSchema } from '../../../src/batches/limits.js';
import { UPLOAD_COLUMNS } from '../../../src/appointment-uploads/columns.js';
import { plural } from '../../../src/text-format.js';
import { CliError, positiveInt, withClient, type CliContext } from '../context.js';
import { parsedWith } from '../option-parsers.js';

interface UploadOptions {
  tenant?: string;
  concurrency?: number;
}

export function registerAppointments(program: Command, ctx: CliContext): void {
  const appointments = program.command('appointments').description('patients’ appointments (verified ahead of each)');
  appointments
    .command('upload')
    .description('book a schedule: a CSV or JSONL file of appointments, one a row')
    .argument('<file>', 'a .csv file (header row of the columns below) or a .jsonl file (one appointment a line)')
    .option('--tenant <id>', 'the practice’s tenant (a clinic id; never patient data)', parsedWith(TenantSchema))
    .option('--concurrency <n>', 'appointments booked at once (default 16)', positiveInt)
    .addHelpText(
      'after',
      `
CSV columns (any order; an empty cell is an absent field):
  ${UPLOAD_COLUMNS.join(', ')}
appointmentRef, patientRef, firstName, lastName, dateOfBirth (YYYY-MM-DD or MM/DD/YYYY), dateOfService (YYYY-MM-DD),
specialtyCode and placeOfServiceCode are required; payerId until a verification of the patient has named one;
startTime (HH:MM, 24-hour) is optional; timeZone defaults to UTC.

Each row is booked on its patient (started on its first appointment). The same file uploaded again books nothing
twice: a row whose appointment exists is unchanged, or rescheduled when its date moved. An appointment missing from
the file is not cancelled. Rows are reported by row number, file line and field, never with their values; stopping
this command midway loses nothing, and running it again finishes the rest. Exit code 2 when a row was rejected or
failed. Needs PATIENT_ID_KEY (or PATIENT_ID_KEY_FILE), the intake API's key of patient ids.

Examples:
  $ eligibility appointments upload monday.csv --tenant clinic-42
  $ eligibility appointments upload week-48.jsonl`,
    )
    .action(async (file: string, options: UploadOptions) => {
      const fs = await import('node:fs/promises');
      const { intakeFormat } = await import('../../../src/intake-files/read-requests.js');
      const { readAppointmentUpload, uploadDisclosedFields } =
        await import('../../../src/appointment-uploads/read-upload.js');
      const { bookUpload } = await import('../../../src/appointment-uploads/book-upload.js');
      const { loadPatientIdKey } = await import('../../../src/patients/id-key.js');
      const { loadBlindIndexKeys } = await import('../../../src/blind-index/keys.js');
      const { tenantToStart } = await import('../person.js');
      const { recordAccess } = await import('../audit-record.js');
      const { UploadProgress } = await import('../upload-progress.js');
      const tenant = await tenantToStart(ctx, options.tenant, {
        action: 'appointment.upload',
        what: 'book appointments',
      });
      const format = intakeFormat(file);
      const rows = readAppointmentUpload(await readFile(fs, file), format);
      const idKey = await loadPatientIdKey(ctx.config().patients);
      if (!idKey) throw new CliError('no patient id key: set PATIENT_ID_KEY or PATIENT_ID_KEY_FILE');
      await recordAccess(ctx, {
        action: 'appointment.upload',
        ...(tenant ? { tenant } : {}),
        fields: uploadDisclosedFields(rows),
        outcome: 'ok',
      });
      const progress = new UploadProgress(rows.length);
      const blindIndex = await loadBlindIndexKeys(ctx.config().codec);
      const { counts, results } = await withClient(ctx, (client, config) =>
        bookUpload(
          { client, taskQueue: config.temporal.taskQueue, idKey, ...(blindIndex ? { blindIndex } : {}) },
          rows,
          {
            tenant,
            ...(options.concurrency ? { concurrency: options.concurrency } : {}),
            onRow: (r) => progress.add(r),
          },
        ),
      );
      progress.finish();
      for (const r of results) {
        if (r.status === 'rejected' || r.status === 'failed') {
          console.log(`row ${r.row} (line ${r.line}): ${r.status}${r.param ? `, ${r.param}` : ''}: ${r.message ?? ''}`);
        }
      }
      console.log(
        `${plural(rows.length, 'row')}: ${counts.booked} booked, ${counts.rescheduled} rescheduled, ` +
          `${counts.unchanged} unchanged, ${counts.rejected} rejected, ${counts.failed} failed`,
      );
      if (counts.rejected + counts.failed > 0)
        throw new CliError(`${plural(counts.rejected + counts.failed, 'row')} not booked`, 2);
    });
}

async function readFile(fs: typeof import('node:fs/promises'), file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}
