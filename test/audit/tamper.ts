import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { entryMac, FIRST_PREV_HASH, legacyEntryHash, type AuditEntry } from '../../src/audit/audit-entry.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { up as unkeyedAppend } from '../../src/store/migrations/0002-audit-append.js';

/** What someone with the database but not the key recomputes hashes with: a key of their own, or the unkeyed rule. */
export type Forgery = 'own-key' | 'unkeyed';

/**
 * Rewrites the trail from entry `fromSeq` on as someone who can write the database but has no audit key would: the
 * entries go, `change` makes their replacements (edited, renumbered, fewer), and each gets a recomputed hash chained
 * to the one before it, under the same key id with a key of the forger's own, or by the unkeyed rule.
 */
export async function rewriteTail(
  store: Store,
  fromSeq: number,
  change: (entries: AuditEntry[]) => AuditEntry[],
  forgery: Forgery = 'own-key',
): Promise<void> {
  const all = await new AuditTrail(store).list({ limit: 10_000 });
  const kept = all.filter((e) => e.seq < fromSeq);
  const forgersKey = randomBytes(32);
  let prevHash = kept.at(-1)?.hash ?? FIRST_PREV_HASH;
  await store.db.deleteFrom('audit_entries').where('seq', '>=', String(fromSeq)).execute();
  for (const replacement of change(all.filter((e) => e.seq >= fromSeq))) {
    const { hash: _old, ...body } = { ...replacement, prevHash };
    const keyId = forgery === 'unkeyed' ? null : body.keyId;
    const hash = keyId === null ? legacyEntryHash({ ...body, keyId }) : entryMac(forgersKey, body);
    await store.db
      .insertInto('audit_entries')
      .values({
        seq: body.seq,
        at: new Date(body.at),
        actor: body.actor,
        tenant: body.tenant,
        action: body.action,
        workflow_id: body.workflowId,
        batch_id: body.batchId,
        fields: [...body.fields],
        source: body.source,
        outcome: body.outcome,
        prev_hash: prevHash,
        hash,
        key_id: keyId,
      })
      .execute();
    prevHash = hash;
  }
}

/** Entries written as before the trail was keyed: by migration 0002's `audit_append`, made again for the purpose. */
export async function writeLegacyEntries(store: Store, actors: readonly string[]): Promise<void> {
  await unkeyedAppend(store.db as unknown as Kysely<unknown>);
  for (const actor of actors) {
    await sql`select * from audit_append(${new Date().toISOString()}, ${actor}, ${'clínica-1'}, ${'verification.read'},
      ${null}, ${null}, ${['discovery']}::text[], ${null}, ${'ok'})`.execute(store.db);
  }
  await sql`drop function audit_append(text, text, text, text, text, text, text[], text, text)`.execute(store.db);
  await sql`drop function audit_part(text)`.execute(store.db);
}
