import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tenantToStart, type TenantScope } from '../../../src/access/tenancy.js';
import { searchTokens } from '../../../src/blind-index/tokens.js';
import { patientIdOf } from '../../../src/patients/patient-id.js';
import { patientTenant } from '../../../src/patients/patients.js';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { DEFAULT_EVENT_TENANT } from '../../../workflows/shared/search-attributes.js';
import { audited } from '../audit.js';
import { requireCsrf } from '../csrf.js';
import { sendPage, type ConsoleDeps } from '../deps.js';
import { patientRows } from '../patient-rows.js';
import { patientKeysProblem, typedFields } from '../patient-search.js';
import { operatorOf } from '../session.js';
import { html, type Html } from '../views/html.js';
import {
  patientsForm,
  patientsFound,
  type PatientsProblem,
  type PatientsQuery,
  type TenantChoice,
} from '../views/patients.js';

const FIELDS = ['lastName', 'dateOfBirth', 'memberId', 'patientRef', 'tenant'] as const;

/** What was typed (bounded), to show in the form again: the page is the operator's own, never a URL or a log. */
const queryOf = (body: Record<string, unknown> | undefined): PatientsQuery => typedFields(body, FIELDS, 200);

/** The first field at fault, named; undefined when the search can run. */
function problemOf(q: PatientsQuery): PatientsProblem | undefined {
  if (q.tenant !== undefined && !TenantSchema.safeParse(q.tenant).success) {
    return { field: 'tenant', message: 'This is not a tenant identifier.' };
  }
  if (q.patientRef !== undefined) return undefined;
  return patientKeysProblem(q, 'Type a last name and a date of birth, a member id, or a patient reference.');
}

const choiceOf = (tenants: TenantScope): TenantChoice =>
  tenants === null ? { kind: 'any' } : tenants.length > 1 ? { kind: 'some', tenants } : { kind: 'one' };

type Found = { ids: string[] } | PatientsProblem | { off: string };

/** The patient a reference gives, in the tenant the operator picked (the wall: one of theirs). */
async function byReference(deps: ConsoleDeps, tenants: TenantScope, q: PatientsQuery & { patientRef: string }) {
  const start = tenantToStart(tenants, q.tenant);
  if ('refused' in start) {
    const message =
      start.refused === 'choose-one'
        ? 'Pick the tenant this reference belongs to.'
        : 'This is not one of your tenants.';
    return { field: 'tenant', message } as const;
  }
  if (!deps.visits) return { off: 'Finding a patient needs the database (DATABASE_URL).' };
  const key = await deps.patientIdKey?.();
  if (!key) return { off: 'Finding a patient by reference is off: this console has no PATIENT_ID_KEY.' };
  return { ids: [patientIdOf(key, patientTenant(start.tenant), q.patientRef)] };
}

/** The patients the blind index finds within the operator's tenants (or the one named). */
async function byIndex(deps: ConsoleDeps, tenants: TenantScope, q: PatientsQuery): Promise<Found> {
  if (!deps.blindIndex) return { off: 'Finding a patient is off: this console has no search keys (BLIND_INDEX_KEYS).' };
  if (!deps.visits) return { off: 'Finding a patient needs the database (DATABASE_URL).' };
  if (tenants !== null && q.tenant !== undefined && !tenants.includes(q.tenant)) {
    return { field: 'tenant', message: 'This is not one of your tenants.' };
  }
  // A patient of no tenant is indexed under none; the id of its workflow names `default`.
  const hashed = q.tenant !== undefined ? [q.tenant] : (tenants ?? [undefined, DEFAULT_EVENT_TENANT]);
  const scope = q.tenant !== undefined ? [q.tenant] : tenants;
  const tokens = searchTokens(deps.blindIndex, hashed, {
    ...(q.lastName ? { lastName: q.lastName } : {}),
    ...(q.dateOfBirth ? { dateOfBirth: q.dateOfBirth } : {}),
    ...(q.memberId ? { memberId: q.memberId } : {}),
  });
  return { ids: await deps.visits.find(tokens, scope) };
}

/**
 * Patients (docs/operating/console.md): find a patient by last name + date of birth or member id (the blind index over
 * the patients' copies) or by the practice's own reference (the patient id it gives), within the operator's tenants.
 * Every search is a `patient.search` entry naming the fields searched by; every patient listed a `patient.read`.
 */
export function patientsPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const frame = { title: 'Patients', section: '/patients' } as const;
  const show = (request: FastifyRequest, reply: FastifyReply, body: (csrf: string) => Html, status = 200) =>
    sendPage(request, reply, frame, body, status);

  const form = { access: { role: 'viewer' }, owns: 'none', audit: { none: 'an empty search form' } } as const;
  app.get('/patients', { config: form }, (request, reply) =>
    show(request, reply, (csrf) => patientsForm(csrf, choiceOf(operatorOf(request).tenants))),
  );

  app.post<{ Body: Record<string, unknown> }>(
    '/patients',
    {
      preHandler: requireCsrf(app),
      config: { access: { role: 'viewer' }, owns: 'own-tenant', audit: 'patient.search' },
    },
    async (request, reply) => {
      const { tenants } = operatorOf(request);
      const choice = choiceOf(tenants);
      const q = queryOf(request.body);
      const problem = problemOf(q);
      const found: Found = problem
        ? problem
        : q.patientRef !== undefined
          ? await byReference(deps, tenants, { ...q, patientRef: q.patientRef })
          : await byIndex(deps, tenants, q);
      if ('field' in found) return show(request, reply, (csrf) => patientsForm(csrf, choice, q, found), 400);
      if ('off' in found) {
        return show(
          request,
          reply,
          (csrf) =>
            html`${patientsForm(csrf, choice, q)}
              <p class="error" role="alert">${found.off}</p>`,
          503,
        );
      }
      const rows = await patientRows(deps, request, found.ids);
      await audited(deps.audit, request, {
        tenant: q.tenant ?? (tenants?.length === 1 ? tenants[0]! : null),
        fields: (['lastName', 'dateOfBirth', 'memberId', 'patientRef'] as const).filter((f) => q[f] !== undefined),
        outcome: rows.size > 0 ? 'ok' : 'not-found',
      });
      return show(request, reply, (csrf) => html`${patientsForm(csrf, choice, q)}${patientsFound(found.ids, rows)}`);
    },
  );
}
