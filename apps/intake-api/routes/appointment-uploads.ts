import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { bookUpload } from '../../../src/appointment-uploads/book-upload.js';
import { readAppointmentUpload, uploadDisclosedFields } from '../../../src/appointment-uploads/read-upload.js';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { audited } from '../audit.js';
import type { IntakeApp, IntakeDeps } from '../deps.js';
import { answer, commonAnswers, TAGS } from '../openapi.js';
import { startTenant } from '../owned.js';
import { patientsOf } from '../patient-access.js';
import { ErrorResponse } from '../schemas.js';
import { BATCH_BODY_LIMIT, UPLOAD_TYPES } from './batches-submit.js';

export const UPLOADS_PATH = '/appointments/uploads';
const UploadQuery = z.strictObject({ tenant: TenantSchema.optional() });

/**
 * `POST /appointments/uploads`: a day's or a week's schedule as a CSV or JSON Lines file (docs/integrating/
 * appointment-uploads.md). The file is read and checked as a whole first (a 400 names its problem); then the answer
 * streams one JSON line per row as it is booked (`booked`, `rescheduled`, `unchanged`, `rejected` with the field,
 * `failed`), and a last line with the counts. Uploading the same file again books nothing twice (decision 0052).
 */
export function appointmentUploadRoutes(app: IntakeApp, deps: IntakeDeps): void {
  void app.register((scope: IntakeApp, _options, done) => {
    scope.addContentTypeParser(
      Object.keys(UPLOAD_TYPES),
      { parseAs: 'buffer', bodyLimit: BATCH_BODY_LIMIT },
      (_request, body, next) => next(null, body),
    );
    scope.post(
      UPLOADS_PATH,
      {
        bodyLimit: BATCH_BODY_LIMIT,
        config: { access: { scope: 'verifications:write' }, owns: 'own-tenant', audit: 'appointment.upload' },
        schema: {
          operationId: 'uploadAppointments',
          tags: [TAGS.appointments.name],
          summary: 'Book a schedule: a CSV or JSON Lines file of appointments, answered row by row as JSON Lines',
          querystring: UploadQuery,
          response: {
            200: {
              description:
                'One line per row as it is done (`{row, line, status, patientId?, appointmentId?, param?, ' +
                'message?}`), then `{done: true, counts}`',
              content: { 'application/x-ndjson': { schema: z.string() } },
            },
            400: answer(
              'A malformed file (empty, not UTF-8, bad quoting, unknown columns, too many rows)',
              ErrorResponse,
            ),
            ...commonAnswers,
            413: answer(`Larger than ${BATCH_BODY_LIMIT / 1024 / 1024} MB`, ErrorResponse),
            415: answer('Not CSV (`text/csv`) or JSON Lines (`application/x-ndjson`)', ErrorResponse),
          },
        },
      },
      async (request, reply) => {
        const mediaType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const format = UPLOAD_TYPES[mediaType as keyof typeof UPLOAD_TYPES];
        if (!Buffer.isBuffer(request.body) || format === undefined) {
          return reply
            .code(415)
            .send({ error: 'unsupported_media_type', message: 'send text/csv or application/x-ndjson' });
        }
        const patients = patientsOf(deps, request);
        const tenant = startTenant(request, request.query.tenant);
        // A malformed file is the error handler's 400 naming its problem (AppointmentUploadError).
        const rows = readAppointmentUpload(request.body, format);
        // One entry for the file, before anything is booked: what it carries, by field name.
        await audited(deps.access, request, { ...(tenant ? { tenant } : {}), fields: uploadDisclosedFields(rows) });
        const stream = new PassThrough();
        // The rows are booked after the answer's head is sent; a client that goes away stops nothing (each row is
        // idempotent, and the file may be uploaded again).
        void bookUpload(patients, rows, {
          tenant,
          onRow: (result) => stream.write(`${JSON.stringify(result)}\n`),
        }).then(
          ({ counts }) => {
            request.log.info({ rows: rows.length, ...counts }, 'appointments uploaded');
            stream.end(`${JSON.stringify({ done: true, counts })}\n`);
          },
          (err: unknown) => stream.destroy(err instanceof Error ? err : new Error('upload failed')),
        );
        // A stream is sent as it is written (Fastify serialises no stream); the type provider knows bodies only.
        return reply
          .type('application/x-ndjson')
          .header('cache-control', 'no-store')
          .send(stream as unknown as string);
      },
    );
    done();
  });
}
