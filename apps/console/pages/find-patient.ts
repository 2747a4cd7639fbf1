import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findPatient } from '../../../src/temporal/find-patient.js';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { patientKeysProblem, typedFields } from '../patient-search.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import {
  patientMatches,
  patientSearchForm,
  type PatientQuery,
  type PatientQueryProblem,
} from '../views/find-patient.js';
import { searchForm } from '../views/verification.js';

/** Most verifications one search shows. */
const MATCH_LIMIT = 50;

const FIELDS = ['lastName', 'dateOfBirth', 'memberId', 'tenant'] as const;

/** The search asked for, or the first field at fault (named, never repeated back in the message). */
function readQuery(body: Record<string, unknown> | undefined): { query: PatientQuery } | PatientQueryProblem {
  const query: PatientQuery = typedFields(body, FIELDS);
  const problem = patientKeysProblem(query, 'Type a last name and a date of birth, or a member id.');
  if (problem) return problem;
  if (query.tenant !== undefined && !TenantSchema.safeParse(query.tenant).success) {
    return { field: 'tenant', message: 'This is not a tenant identifier.' };
  }
  return { query };
}

/**
 * Find a patient by last name + date of birth or member id (docs/developing/patient-data.md): keyed hashes of what was
 * typed are looked up in visibility (src/blind-index), within the operator's tenants. Every search is an audit entry
 * naming the fields searched by; the page shows identifiers and stages, and the patient only on a verification's own
 * page.
 */
export function findPatientPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const frame = { title: 'Find a patient or a verification', section: '/verifications' } as const;
  const show = (
    request: FastifyRequest,
    reply: FastifyReply,
    body: (csrf: string) => ReturnType<typeof html>,
    status = 200,
  ) => sendPage(request, reply, frame, body, status);

  app.post<{ Body: Record<string, unknown> }>(
    '/verifications/patient',
    {
      preHandler: requireCsrf(app),
      config: { access: { role: 'viewer' }, owns: 'own-tenant', audit: 'verification.search' },
    },
    async (request, reply) => {
      const operator = operatorOf(request);
      const everyTenant = operator.tenants === null;
      const read = readQuery(request.body);
      const keys = deps.blindIndex;
      if (!keys) {
        return show(
          request,
          reply,
          (csrf) =>
            html`${patientSearchForm(csrf, {}, undefined, everyTenant)}
              <p class="error" role="alert">
                Finding a patient is off: this console has no search keys (BLIND_INDEX_KEYS or CODEC_KEYS).
              </p>
              ${searchForm(csrf)}`,
          503,
        );
      }
      if (!('query' in read)) {
        return show(
          request,
          reply,
          (csrf) =>
            html`${patientSearchForm(csrf, patientQueryOf(request.body), read, everyTenant)}${searchForm(csrf)}`,
          400,
        );
      }
      const { query } = read;
      // An operator of some tenants searches each of them; one of every tenant, the tenant named (or none).
      const tenants = operator.tenants ?? [query.tenant];
      const patient = {
        ...(query.lastName ? { lastName: query.lastName } : {}),
        ...(query.dateOfBirth ? { dateOfBirth: query.dateOfBirth } : {}),
        ...(query.memberId ? { memberId: query.memberId } : {}),
      };
      const matches = await withDeadline(deps, () =>
        findPatient(deps.client, keys, { tenants, patient, limit: MATCH_LIMIT }),
      );
      await audited(deps.audit, request, {
        tenant: tenants.length === 1 ? (tenants[0] ?? null) : null,
        fields: (['lastName', 'dateOfBirth', 'memberId'] as const).filter((f) => query[f] !== undefined),
        outcome: matches.length > 0 ? 'ok' : 'not-found',
      });
      const names = await payerNames(
        deps,
        matches.map((m) => m.payerId),
      );
      return show(
        request,
        reply,
        (csrf) =>
          html`${patientSearchForm(csrf, query, undefined, everyTenant)}${patientMatches(matches, names)}${searchForm(csrf)}`,
      );
    },
  );
}

/** What was typed, to show in the form again (the page is the operator's own; never a URL or a log). */
const patientQueryOf = (body: Record<string, unknown> | undefined): PatientQuery => typedFields(body, FIELDS, 100);
