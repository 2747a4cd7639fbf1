import { sql } from 'kysely';
import type { TenantScope } from '../access/tenancy.js';
import type { CodecKeys } from '../codec/keys.js';
import { Sealer } from '../codec/sealing.js';
import type { Store } from '../store/database.js';
import type { PatientCopy } from '../../workflows/patient/patient.js';
import { checkWorkflowId, visitCoverage } from './coverage.js';
import { readDay, type DayOfVisits, type DayQuery } from './day.js';

/** Most patient ids one `find` answers. */
export const FIND_LIMIT = 50;

/**
 * The front desk's day (docs/developing/patient-data.md): every patient workflow keeps a copy of itself here after each
 * change, so a day of thousands of visits is read from one table instead of thousands of workflows. The copy is
 * sealed with the codec keys (`keys` undefined: ENCRYPTION_DISABLED); the visits' rows hold identifiers, dates and
 * states only. Every read is scoped by the tenant wall's scope (src/access/tenancy.ts).
 */
export class Visits {
  readonly #sealer: Sealer;

  constructor(
    private readonly store: Store,
    keys: CodecKeys | undefined,
  ) {
    this.#sealer = new Sealer(keys, 'a patient copy');
  }

  /**
   * Keeps the copy and its appointments: one upsert per table, each taking a row only from a higher revision, so a
   * repeated or late older copy changes nothing. Visits no longer in the copy (past ones the workflow let go) stay.
   */
  async keep(copy: PatientCopy): Promise<void> {
    const { db } = this.store;
    const newer = <T extends 'patient_copies' | 'visits'>(table: T) =>
      sql<boolean>`${sql.ref(`${table}.revision`)} < excluded.revision`;
    await db
      .insertInto('patient_copies')
      .values({
        patient_id: copy.patientId,
        tenant: copy.tenant,
        revision: copy.revision,
        copy: this.#sealer.seal(JSON.stringify(copy)),
        tokens: sql<string[]>`${copy.index ?? []}::text[]`,
        updated_at: sql<Date>`now()`,
      })
      .onConflict((c) =>
        c
          .column('patient_id')
          .doUpdateSet({
            revision: (eb) => eb.ref('excluded.revision'),
            copy: (eb) => eb.ref('excluded.copy'),
            tokens: (eb) => eb.ref('excluded.tokens'),
            updated_at: (eb) => eb.ref('excluded.updated_at'),
          })
          .where(newer('patient_copies')),
      )
      .execute();
    if (copy.appointments.length === 0) return;
    await db
      .insertInto('visits')
      .values(
        copy.appointments.map((a) => {
          const workflowId = checkWorkflowId(a);
          const answered = workflowId ? copy.timeline.find((e) => e.workflowId === workflowId) : undefined;
          return {
            appointment_id: a.appointmentId,
            patient_id: copy.patientId,
            tenant: copy.tenant,
            revision: copy.revision,
            date_of_service: a.dateOfService,
            start_time: a.startTime ?? null,
            provider_group_id: a.providerGroupId ?? null,
            payer_id: a.payerId ?? answered?.payerId ?? null,
            status: a.status,
            coverage: visitCoverage(a, copy),
            check_workflow_id: workflowId ?? null,
            updated_at: sql<Date>`now()`,
          };
        }),
      )
      .onConflict((c) =>
        c
          .column('appointment_id')
          .doUpdateSet((eb) => ({
            revision: eb.ref('excluded.revision'),
            date_of_service: eb.ref('excluded.date_of_service'),
            start_time: eb.ref('excluded.start_time'),
            provider_group_id: eb.ref('excluded.provider_group_id'),
            payer_id: eb.ref('excluded.payer_id'),
            status: eb.ref('excluded.status'),
            coverage: eb.ref('excluded.coverage'),
            check_workflow_id: eb.ref('excluded.check_workflow_id'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where(newer('visits')),
      )
      .execute();
  }

  /** One day of the scope's visits, filtered, counted and paged, each with its patient (patient data: audit it). */
  day(query: DayQuery): Promise<DayOfVisits> {
    return readDay(this.store.db, query, (sealed) => this.#open(sealed));
  }

  /** The latest copies of these patients that the scope sees (patient data: audit it); others are simply absent. */
  async copies(patientIds: readonly string[], tenants: TenantScope): Promise<Map<string, PatientCopy>> {
    if (patientIds.length === 0 || (tenants !== null && tenants.length === 0)) return new Map();
    let q = this.store.db
      .selectFrom('patient_copies')
      .select(['patient_id', 'copy'])
      .where('patient_id', 'in', [...patientIds]);
    if (tenants !== null) q = q.where('tenant', 'in', tenants);
    const rows = await q.execute();
    return new Map(rows.map((r) => [r.patient_id, this.#open(r.copy)]));
  }

  /** The patients holding any of these blind-index tokens in the scope, most recently changed first, at most `limit`. */
  async find(tokens: readonly string[], tenants: TenantScope, limit = FIND_LIMIT): Promise<string[]> {
    if (tokens.length === 0 || (tenants !== null && tenants.length === 0)) return [];
    let q = this.store.db
      .selectFrom('patient_copies')
      .select('patient_id')
      .where(sql<boolean>`tokens && ${[...tokens]}::text[]`);
    if (tenants !== null) q = q.where('tenant', 'in', tenants);
    const rows = await q.orderBy('updated_at', 'desc').orderBy('patient_id').limit(limit).execute();
    return rows.map((r) => r.patient_id);
  }

  #open(sealed: string): PatientCopy {
    return JSON.parse(this.#sealer.open(sealed)) as PatientCopy;
  }
}
