import { sql, type Kysely } from 'kysely';

/**
 * The outbox of outbound events (decision 60): one row per event and endpoint from the moment a workflow
 * emits it until the first attempt delivered it or the tenant's dispatcher took it over. A worker that dies with rows of
 * its own leaves them here for the sweeper; the rows of one verification (batch, patient) and endpoint keep their order
 * by `seq`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_outbox')
    .addColumn('seq', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('event_endpoints.id').onDelete('cascade'))
    .addColumn('order_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('event_outbox_state', sql`state in ('pending', 'held', 'handing', 'handed')`)
    .addUniqueConstraint('event_outbox_event_endpoint', ['event_id', 'endpoint_id'])
    .execute();
  await db.schema
    .createIndex('event_outbox_order')
    .on('event_outbox')
    .columns(['endpoint_id', 'order_key', 'seq'])
    .execute();
  await db.schema.createIndex('event_outbox_state').on('event_outbox').columns(['state', 'claimed_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_outbox').execute();
}
