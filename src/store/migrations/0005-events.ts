import { sql, type Kysely } from 'kysely';

/**
 * Outbound events (docs/integrating/events.md): the endpoints a tenant subscribes, the events kept for replay (30 days)
 * and every delivery attempt. Secrets are sealed with the codec keys (src/events/secret-box.ts): they sign, so they
 * cannot be hashes, and a copy of the database alone does not give them away.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
    .addColumn('disabled_reason', 'text')
    .addColumn('disabled_at', 'timestamptz')
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('event_endpoints_status', sql`status in ('active', 'disabled')`)
    .execute();
  await db.schema
    .createIndex('event_endpoints_tenant')
    .on('event_endpoints')
    .columns(['tenant', 'created_at'])
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();

  await db.schema
    .createTable('event_deliveries')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('event_endpoints.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error_type', 'text')
    .addColumn('latency_ms', 'integer')
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('next_retry_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('event_deliveries_endpoint')
    .on('event_deliveries')
    .columns(['endpoint_id', 'attempted_at'])
    .execute();
  await db.schema.createIndex('event_deliveries_event').on('event_deliveries').columns(['event_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_deliveries').execute();
  await db.schema.dropTable('events').execute();
  await db.schema.dropTable('event_endpoints').execute();
}
