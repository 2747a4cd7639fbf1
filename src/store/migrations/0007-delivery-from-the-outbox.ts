import { sql, type Kysely } from 'kysely';

/**
 * Deliveries from the outbox (decision 80): a row is an event's delivery to one endpoint until it is delivered, and
 * holds its retries (`attempts`, `next_attempt_at`, `first_failed_at`) and the lease of the worker attempting it
 * (`claimed_until`). Additive: the rows an earlier version's worker writes (`pending`, `held`, `handing`, `handed`) keep
 * their meaning while it runs, and are taken over as `queued` once it has left them (src/events/delivery/outbox.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('event_outbox')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('first_failed_at', 'timestamptz')
    .addColumn('claimed_until', 'timestamptz')
    .execute();
  await db.schema.alterTable('event_outbox').dropConstraint('event_outbox_state').execute();
  await db.schema
    .alterTable('event_outbox')
    .addCheckConstraint('event_outbox_state', sql`state in ('queued', 'pending', 'held', 'handing', 'handed')`)
    .execute();
  // A worker's claim: each endpoint's due rows in order, and how many of its rows are under way.
  await db.schema
    .createIndex('event_outbox_due')
    .on('event_outbox')
    .columns(['endpoint_id', 'next_attempt_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('event_outbox_claimed')
    .on('event_outbox')
    .column('endpoint_id')
    .where(sql.ref('claimed_until'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('event_outbox_claimed').execute();
  await db.schema.dropIndex('event_outbox_due').execute();
  await db
    .deleteFrom('event_outbox' as never)
    .where('state' as never, '=', 'queued' as never)
    .execute();
  await db.schema.alterTable('event_outbox').dropConstraint('event_outbox_state').execute();
  await db.schema
    .alterTable('event_outbox')
    .addCheckConstraint('event_outbox_state', sql`state in ('pending', 'held', 'handing', 'handed')`)
    .execute();
  await db.schema
    .alterTable('event_outbox')
    .dropColumn('attempts')
    .dropColumn('next_attempt_at')
    .dropColumn('first_failed_at')
    .dropColumn('claimed_until')
    .execute();
}
