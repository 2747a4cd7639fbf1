import type { Kysely } from 'kysely';

/**
 * Failed sign-ins (src/access/sign-in-throttle.ts), counted by every console and intake API process alike: a key (a
 * keyed hash of an operator name, or an address), its failures in the current window, its blocks and until when.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sign_in_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull())
    .addColumn('blocks', 'integer', (c) => c.notNull())
    .addColumn('blocked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_throttle_expires').on('sign_in_throttle').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_throttle').execute();
}
