import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { TenantScope } from '../access/tenancy.js';
import type { VerificationPatient } from '../contract/index.js';
import type { Tables } from '../store/tables.js';
import type { PatientCopy } from '../../workflows/patient/patient.js';
import { VISIT_COVERAGES, type VisitCoverage } from './coverage.js';

/** One day of the front desk's schedule, as asked for. */
export interface DayQuery {
  /** YYYY-MM-DD, the visits' own date of service (local to their practice). */
  day: string;
  /** Whose visits (src/access: null is every tenant). */
  tenants: TenantScope;
  /** One tenant of the scope (a clinic); one outside it leaves nothing. */
  tenant?: string;
  providerGroupId?: string;
  /** Only the visits whose coverage stands so (the counts stay the whole day's). */
  coverage?: VisitCoverage;
  /** Verifications waiting for a person (read from visibility): a `checking` visit answered by one is `needs-input`. */
  awaitingInput?: readonly string[];
  /** 1-based; past the last page, the last. */
  page?: number;
  pageSize?: number;
}

/** One visit of the day, with its patient (patient data: shown to a person only through an audit). */
export interface Visit {
  appointmentId: string;
  patientId: string;
  tenant: string;
  dateOfService: string;
  startTime?: string;
  providerGroupId?: string;
  payerId?: string;
  coverage: VisitCoverage;
  /** The verification that answered its latest check. */
  checkWorkflowId?: string;
  patient?: VerificationPatient;
}

export interface DayOfVisits {
  day: string;
  /** This page's visits, by start time (those without one last), then appointment id. */
  visits: Visit[];
  /** The day's scheduled visits by coverage (the provider filter applied, the coverage filter not). */
  counts: Record<VisitCoverage, number>;
  /** Visits the query matches, on every page. */
  total: number;
  page: number;
  pages: number;
  /** The tenants of the scope with visits that day (the tenant filter not applied). */
  tenants: string[];
  /** The provider groups with visits that day, in the scope (the tenant filter applied). */
  providers: string[];
  /** The next days' scheduled visits (the provider filter applied). */
  ahead: { day: string; visits: number }[];
}

export const DAY_PAGE_SIZE = 25;
/** Days counted ahead of the one shown. */
export const DAYS_AHEAD = 7;

type Db = Kysely<Tables>;

/** The coverage the page shows: `checking` refined to `needs-input` for a verification waiting for a person. */
const shownCoverage = (awaiting: readonly string[] | undefined): RawBuilder<string> =>
  awaiting && awaiting.length > 0
    ? sql<string>`case when visits.coverage = 'checking' and visits.check_workflow_id = any(${[...awaiting]}::text[]) then 'needs-input' else visits.coverage end`
    : sql<string>`visits.coverage`;

/** Visits of the scope, scheduled (a cancelled visit is off the day), of the tenant and provider when named. */
function scoped(db: Db, query: DayQuery) {
  let q = db.selectFrom('visits').where('visits.status', '=', 'scheduled');
  if (query.tenants !== null) q = q.where('visits.tenant', 'in', query.tenants);
  if (query.tenant !== undefined) q = q.where('visits.tenant', '=', query.tenant);
  if (query.providerGroupId !== undefined) q = q.where('visits.provider_group_id', '=', query.providerGroupId);
  return q;
}

const emptyCounts = () => Object.fromEntries(VISIT_COVERAGES.map((c) => [c, 0])) as Record<VisitCoverage, number>;

/**
 * Reads one day: its counts by coverage and provider, the days ahead, then the page asked for with each visit's patient
 * opened from its sealed copy (`open`). Three statements on the `(tenant, date_of_service)` index.
 */
export async function readDay(db: Db, query: DayQuery, open: (sealed: string) => PatientCopy): Promise<DayOfVisits> {
  const pageSize = query.pageSize ?? DAY_PAGE_SIZE;
  const none = { day: query.day, visits: [], counts: emptyCounts(), total: 0, page: 1, pages: 1, ahead: [] };
  if (query.tenants !== null && query.tenants.length === 0) return { ...none, tenants: [], providers: [] };
  const coverage = shownCoverage(query.awaitingInput);
  const onDay = sql<SqlBool>`visits.date_of_service = ${query.day}::date`;
  const [groups, ahead] = await Promise.all([
    scoped(db, { ...query, tenant: undefined, providerGroupId: undefined })
      .where(onDay)
      .select([
        coverage.as('coverage'),
        'visits.tenant',
        'visits.provider_group_id as provider',
        sql<string>`count(*)`.as('visits'),
      ])
      .groupBy([sql`1`, sql`2`, sql`3`])
      .execute(),
    scoped(db, query)
      .where(sql<SqlBool>`visits.date_of_service > ${query.day}::date`)
      .where(sql<SqlBool>`visits.date_of_service <= ${query.day}::date + ${DAYS_AHEAD}::int`)
      .select([sql<string>`visits.date_of_service::text`.as('day'), sql<string>`count(*)`.as('visits')])
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .execute(),
  ]);
  const counts = emptyCounts();
  const tenants = new Set<string>();
  const providers = new Set<string>();
  for (const g of groups) {
    tenants.add(g.tenant);
    if (query.tenant !== undefined && g.tenant !== query.tenant) continue;
    if (g.provider !== null) providers.add(g.provider);
    if (query.providerGroupId !== undefined && g.provider !== query.providerGroupId) continue;
    counts[g.coverage as VisitCoverage] += Number(g.visits);
  }
  const total = query.coverage ? counts[query.coverage] : Object.values(counts).reduce((a, b) => a + b, 0);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, query.page ?? 1), pages);
  let rows = scoped(db, query)
    .where(onDay)
    .leftJoin('patient_copies', 'patient_copies.patient_id', 'visits.patient_id')
    .select([
      'visits.appointment_id',
      'visits.patient_id',
      'visits.tenant',
      sql<string>`visits.date_of_service::text`.as('date_of_service'),
      'visits.start_time',
      'visits.provider_group_id',
      'visits.payer_id',
      'visits.check_workflow_id',
      coverage.as('coverage'),
      'patient_copies.copy',
    ]);
  if (query.coverage) rows = rows.where(coverage, '=', query.coverage);
  const found =
    total === 0
      ? []
      : await rows
          .orderBy(sql`visits.start_time asc nulls last`)
          .orderBy('visits.appointment_id')
          .limit(pageSize)
          .offset((page - 1) * pageSize)
          .execute();
  const opened = new Map<string, PatientCopy>();
  const visits = found.map((r): Visit => {
    let copy = opened.get(r.patient_id);
    if (!copy && r.copy) opened.set(r.patient_id, (copy = open(r.copy)));
    return {
      appointmentId: r.appointment_id,
      patientId: r.patient_id,
      tenant: r.tenant,
      dateOfService: r.date_of_service,
      ...(r.start_time ? { startTime: r.start_time } : {}),
      ...(r.provider_group_id ? { providerGroupId: r.provider_group_id } : {}),
      ...(r.payer_id ? { payerId: r.payer_id } : {}),
      coverage: r.coverage as VisitCoverage,
      ...(r.check_workflow_id ? { checkWorkflowId: r.check_workflow_id } : {}),
      ...(copy?.patient ? { patient: copy.patient } : {}),
    };
  });
  return {
    day: query.day,
    visits,
    counts,
    total,
    page,
    pages,
    tenants: [...tenants].sort(),
    providers: [...providers].sort(),
    ahead: ahead.map((a) => ({ day: a.day, visits: Number(a.visits) })),
  };
}
