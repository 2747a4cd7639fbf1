import { sql, type Kysely } from 'kysely';

/**
 * `audit_append(...)`: the trail's one write, in one statement (one round trip, not the six of a transaction from the
 * client): it takes the chain's lock, reads the last entry, hashes the new one over its content and the last hash,
 * and inserts it. The hash's canonical form is `entryHash`'s in src/audit/audit-entry.ts: each part as
 * `<UTF-8 length>:<value>`, or `-` when absent, joined by `|`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function audit_part(value text) returns text language sql immutable as $$
      select case when value is null then '-' else octet_length(value)::text || ':' || value end
    $$`.execute(db);
  await sql`
    create function audit_append(
      p_at text, p_actor text, p_tenant text, p_action text, p_workflow_id text, p_batch_id text,
      p_fields text[], p_source text, p_outcome text
    ) returns table (seq bigint, prev_hash text, hash text) language plpgsql as $$
    declare
      last_seq bigint;
      last_hash text;
      next_seq bigint;
      next_hash text;
    begin
      perform pg_advisory_xact_lock(7310001);
      select e.seq, e.hash into last_seq, last_hash from audit_entries e order by e.seq desc limit 1;
      next_seq := coalesce(last_seq, 0) + 1;
      last_hash := coalesce(last_hash, repeat('0', 64));
      next_hash := encode(sha256(convert_to(concat_ws('|',
        audit_part(next_seq::text), audit_part(p_at), audit_part(p_actor), audit_part(p_tenant), audit_part(p_action),
        audit_part(p_workflow_id), audit_part(p_batch_id), audit_part(array_to_string(p_fields, ',')),
        audit_part(p_source), audit_part(p_outcome), audit_part(last_hash)), 'UTF8')), 'hex');
      insert into audit_entries (seq, at, actor, tenant, action, workflow_id, batch_id, fields, source, outcome, prev_hash, hash)
        values (next_seq, p_at::timestamptz, p_actor, p_tenant, p_action, p_workflow_id, p_batch_id, p_fields, p_source,
                p_outcome, last_hash, next_hash);
      return query select next_seq, last_hash, next_hash;
    end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function audit_append(text, text, text, text, text, text, text[], text, text)`.execute(db);
  await sql`drop function audit_part(text)`.execute(db);
}
