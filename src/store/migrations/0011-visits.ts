import { sql, type Kysely } from 'kysely';

/**
 * The front desk's day (src/visits): each patient's latest copy, sealed with the codec keys (names, dates of birth and
 * member ids live only inside `copy`), with its blind-index tokens (keyed hashes) to find it by; and its visits, one
 * row per appointment, with what the day is read and counted by: identifiers, dates, states. Both are kept by the
 * patient workflow's copies, a higher `revision` replacing a lower one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('patient_copies')
    .addColumn('patient_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('copy', 'text', (c) => c.notNull())
    .addColumn('tokens', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index patient_copies_tokens on patient_copies using gin (tokens)`.execute(db);

  await db.schema
    .createTable('visits')
    .addColumn('appointment_id', 'text', (c) => c.primaryKey())
    .addColumn('patient_id', 'text', (c) => c.notNull())
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('date_of_service', 'date', (c) => c.notNull())
    .addColumn('start_time', 'text')
    .addColumn('provider_group_id', 'text')
    .addColumn('payer_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('coverage', 'text', (c) => c.notNull())
    .addColumn('check_workflow_id', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('visits_day').on('visits').columns(['tenant', 'date_of_service']).execute();
  await db.schema.createIndex('visits_patient').on('visits').column('patient_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('visits').execute();
  await db.schema.dropTable('patient_copies').execute();
}
