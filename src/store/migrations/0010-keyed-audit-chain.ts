import { sql, type Kysely } from 'kysely';
import { up as unkeyedAppend } from './0002-audit-append.js';

/**
 * The keyed audit chain (decision 83): each entry's `hash` is an HMAC under the audit key `key_id` names, which the
 * database never holds, so the writing process computes it (src/audit/chain-writer.ts) and the database's own write,
 * `audit_append`, goes. Entries written before have no `key_id`: their `hash` stays the plain SHA-256 it computed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_entries').addColumn('key_id', 'text').execute();
  await sql`drop function audit_append(text, text, text, text, text, text, text[], text, text)`.execute(db);
  await sql`drop function audit_part(text)`.execute(db);
}

/** Back to the unkeyed write: entries keyed since then no longer verify (their hashes are HMACs). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_entries').dropColumn('key_id').execute();
  await unkeyedAppend(db);
}
