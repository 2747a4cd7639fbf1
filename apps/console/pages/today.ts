import type { FastifyInstance } from 'fastify';
import { TenantSchema } from '../../../src/temporal/tenant.js';
import { awaitingInput, isVisitCoverage, type DayOfVisits } from '../../../src/visits/index.js';
import { audited } from '../audit.js';
import { payerNames, sendPage, withDeadline, type ConsoleDeps } from '../deps.js';
import { operatorOf } from '../session.js';
import { html } from '../views/html.js';
import { pageParam } from '../views/paging.js';
import { todayView, type ShownDay, type TodayFilters } from '../views/today.js';
import { patientNameFor } from '../masking.js';
import type { ConsoleOperator } from '../../../src/access/operators.js';

/** What a page of the day shows of each patient: its names and date of birth, never its member id. */
export const DAY_FIELDS = [
  'patient.firstName',
  'patient.lastName',
  'patient.dateOfBirth',
  'appointments.dateOfService',
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const PROVIDER = /^[A-Za-z0-9._:@-]{1,100}$/;

function filtersOf(query: Record<string, unknown>): TodayFilters {
  const text = (name: string) => (typeof query[name] === 'string' && query[name] !== '' ? query[name] : undefined);
  const day = text('day');
  const tenant = text('tenant');
  const provider = text('provider');
  const coverage = text('coverage');
  return {
    day: day && DAY.test(day) && !Number.isNaN(Date.parse(day)) ? day : new Date().toISOString().slice(0, 10),
    ...(tenant && TenantSchema.safeParse(tenant).success ? { tenant } : {}),
    ...(provider && PROVIDER.test(provider) ? { provider } : {}),
    ...(isVisitCoverage(coverage) ? { coverage } : {}),
  };
}

/** The day as the operator may see its patients: a viewer sees initials and the year of birth, as on every page. */
const dayFor = (operator: ConsoleOperator, day: DayOfVisits): ShownDay => ({
  ...day,
  visits: day.visits.map(({ patient, ...v }) => (patient ? { ...v, patient: patientNameFor(operator, patient) } : v)),
});

/**
 * Today's visits (docs/operating/console.md), the front desk's first page: one day of the operator's clinics from the
 * patients' copies (src/visits), checks waiting for a person read from one visibility list. It shows patients, so each
 * view is an audit entry naming the fields shown.
 */
export function todayPages(app: FastifyInstance, deps: ConsoleDeps): void {
  const read = { access: { role: 'viewer' }, owns: 'own-tenant', audit: 'visits.read' } as const;
  app.get('/today', { config: read }, async (request, reply) => {
    const operator = operatorOf(request);
    const f = filtersOf(request.query as Record<string, unknown>);
    const frame = { title: "Today's visits", section: '/today' } as const;
    const { visits } = deps;
    if (!visits) {
      return sendPage(
        request,
        reply,
        frame,
        () => html`<p>The day's visits need the project's database (DATABASE_URL).</p>`,
      );
    }
    // One clinic: it is the day's. Several (or every one): the operator picks one, or sees them all.
    const only = operator.tenants?.length === 1 ? operator.tenants[0] : undefined;
    const tenant = only ?? f.tenant;
    const awaiting = await withDeadline(deps, () => awaitingInput(deps.client, operator.tenants, tenant));
    const day = await visits.day({
      day: f.day,
      tenants: operator.tenants,
      ...(tenant ? { tenant } : {}),
      ...(f.provider ? { providerGroupId: f.provider } : {}),
      ...(f.coverage ? { coverage: f.coverage } : {}),
      awaitingInput: awaiting,
      page: pageParam(request.query),
    });
    const shown = dayFor(operator, day);
    if (shown.visits.some((v) => v.patient)) {
      await audited(deps.audit, request, { tenant: tenant ?? null, fields: DAY_FIELDS });
    }
    const names = await payerNames(
      deps,
      shown.visits.map((v) => v.payerId),
    );
    const clinics = only ? undefined : (operator.tenants ?? shown.tenants);
    return sendPage(request, reply, frame, () =>
      todayView({ ...f, ...(tenant && !only ? { tenant } : {}) }, shown, names, clinics),
    );
  });
}
