import { z } from 'zod';
import { normaliseDateOfBirth, normaliseLastName, normaliseMemberId } from '../../../src/blind-index/normalise.js';
import { findPatientPage } from '../../../src/temporal/find-patient.js';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { audited } from '../audit.js';
import { withDeadline, type IntakeApp, type IntakeDeps } from '../deps.js';
import { startTenant } from '../owned.js';
import { answer, bodyAnswers, commonAnswers, TAGS } from '../openapi.js';
import { PageFields, pageOf } from '../pagination.js';
import { ErrorResponse } from '../schemas.js';

// Each pattern states in the document what the refinement beside it checks.
const lastName = z
  .string()
  .max(100)
  .refine((v) => normaliseLastName(v) !== undefined, 'must hold letters')
  .meta({ pattern: '\\p{L}' });
const dateOfBirth = z
  .string()
  .refine((v) => normaliseDateOfBirth(v) !== undefined, 'must be MM/DD/YYYY or YYYY-MM-DD')
  .meta({ pattern: '^\\s*(\\d{1,2}/\\d{1,2}/\\d{4}|\\d{4}-\\d{2}-\\d{2})\\s*$' });
const memberId = z
  .string()
  .max(100)
  .refine((v) => normaliseMemberId(v) !== undefined, 'must hold letters or digits')
  .meta({ pattern: '[\\p{L}\\p{N}]' });

/** Strict, as the intake is: an unknown field is refused by name, never ignored. */
export const PatientSearchRequest = z
  .object({
    lastName: lastName.optional().describe('With `dateOfBirth`: case, accents, spaces and punctuation do not matter'),
    dateOfBirth: dateOfBirth.optional().describe('With `lastName`'),
    memberId: memberId.optional().describe('Alone, or with the name and date of birth (either matches)'),
    tenant: TenantSchema.optional().describe(
      'A client of every tenant names the one to search; others search their own',
    ),
    ...PageFields,
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.memberId !== undefined) return;
    if (body.lastName === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['lastName'],
        message: 'lastName and dateOfBirth, or memberId, are required',
      });
    else if (body.dateOfBirth === undefined)
      ctx.addIssue({ code: 'custom', path: ['dateOfBirth'], message: 'dateOfBirth is required with lastName' });
  })
  .meta({
    id: 'PatientSearchRequest',
    examples: [{ lastName: 'Lovelace', dateOfBirth: '12/10/1985' }, { memberId: 'M1234567' }],
    // The rule of the superRefine above, as the document states it.
    anyOf: [{ required: ['memberId'] }, { required: ['lastName', 'dateOfBirth'] }],
  });

export const PatientSearchResponse = pageOf(
  'matches',
  z.object({
    workflowId: z.string(),
    stage: z.string().describe('The stage while it runs, else how it ended'),
    running: z.boolean(),
    payerId: z.string().nullable(),
    batchId: z.string().nullable(),
    startTime: z.iso.datetime(),
    supersededBy: z
      .string()
      .optional()
      .describe('A later attempt of the same batch row (in this page): the one to look at'),
  }),
).meta({ id: 'PatientSearchResponse' });

/** The names of the fields a search used, for its audit entry: never their values. */
const searchedFields = (body: z.output<typeof PatientSearchRequest>) =>
  (['lastName', 'dateOfBirth', 'memberId'] as const).filter((field) => body[field] !== undefined);

/**
 * `POST /verifications/search`: a patient's verifications by last name + date of birth or member id, in the body so
 * no patient value reaches a URL or an access log. Visibility is asked for keyed hashes only (src/blind-index), within
 * the caller's tenant. The answer holds identifiers and stages, never a patient value; `GET /verifications/:id` shows
 * more, and records it. Every search is an audit entry naming the fields searched by.
 */
export function searchRoute(app: IntakeApp, deps: IntakeDeps): void {
  app.post(
    '/verifications/search',
    {
      schema: {
        operationId: 'searchVerifications',
        tags: [TAGS.verifications.name],
        summary: "Find a patient's verifications by last name + date of birth, or member id",
        body: PatientSearchRequest,
        response: {
          ...bodyAnswers,
          200: answer('A page of matches, newest first (identifiers and stages only)', PatientSearchResponse),
          400: answer('`param` names the invalid or unknown field', ErrorResponse),
          ...commonAnswers,
          403: answer(
            "The client lacks `verifications:read`, or `tenant` names another tenant than the client's",
            ErrorResponse,
          ),
          503: answer(
            'The verification engine is unreachable, or patient search is not set up (`error`: `search_unavailable`)',
            ErrorResponse,
          ),
        },
      },
      config: { access: { scope: 'verifications:read' }, owns: 'own-tenant', audit: 'verification.search' },
    },
    async (request, reply) => {
      const body = request.body;
      // The tenant searched: the client's own, or the one a client of every tenant names (or none).
      const tenant = startTenant(request, body.tenant);
      const keys = deps.blindIndex;
      if (!keys) {
        return reply
          .code(503)
          .send({ error: 'search_unavailable', message: 'patient search needs BLIND_INDEX_KEYS or CODEC_KEYS' });
      }
      const { lastName, dateOfBirth, memberId: member, limit, pageToken } = body;
      const patient = {
        ...(lastName ? { lastName } : {}),
        ...(dateOfBirth ? { dateOfBirth } : {}),
        ...(member ? { memberId: member } : {}),
      };
      const tenants = [tenant];
      const page = await withDeadline(deps, () =>
        findPatientPage(deps.client, keys, { tenants, patient, limit, ...(pageToken ? { pageToken } : {}) }),
      );
      await audited(deps.access, request, {
        fields: searchedFields(body),
        outcome: page.matches.length > 0 ? 'ok' : 'not-found',
        ...(tenant !== undefined ? { tenant } : {}),
      });
      return reply.send({ ...page, matches: page.matches.map(({ tenant: _tenant, ...m }) => m) });
    },
  );
}
