import { sql, type Kysely } from 'kysely';

/** Intake clients with hashed keys, and the hash-chained audit trail. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('intake_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tenant', 'text')
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createTable('audit_entries')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('tenant', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('workflow_id', 'text')
    .addColumn('batch_id', 'text')
    .addColumn('fields', sql`text[]`, (c) => c.notNull())
    .addColumn('source', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entries_at').on('audit_entries').column('at').execute();
  await db.schema.createIndex('audit_entries_actor').on('audit_entries').columns(['actor', 'at']).execute();
  await db.schema.createIndex('audit_entries_workflow').on('audit_entries').columns(['workflow_id', 'at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entries').execute();
  await db.schema.dropTable('intake_clients').execute();
}
