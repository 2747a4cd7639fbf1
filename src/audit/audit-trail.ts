import { sql, type Selectable } from 'kysely';
import type { AuditEntriesTable } from '../store/tables.js';
import type { Store } from '../store/database.js';
import { entryHash, type AuditEntry, type AuditEvent } from './audit-entry.js';

export interface AuditFilter {
  actor?: string;
  workflowId?: string;
  batchId?: string;
  /** One action; `client.revoke` also finds `client.revoke:<id>` (changes name their object after a colon). */
  action?: string;
  tenant?: string;
  /** Only entries of these tenants (an administrator of some tenants); undefined: any, and none. */
  tenants?: readonly string[];
  since?: Date;
  until?: Date;
  /** Entries numbered below this one (the next page, newest first) or above it (oldest first). */
  beforeSeq?: number;
  afterSeq?: number;
  newestFirst?: boolean;
  limit?: number;
}

export type Verification =
  { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number; why: string };

/**
 * The audit trail (docs/operating/access-and-audit.md): append-only and tamper-evident. Each entry carries the hash of
 * the one before it, so an edited, deleted or reordered entry breaks the chain at that entry (`verify`). Callers append
 * before they answer: a disclosure whose entry could not be written is not made.
 */
export class AuditTrail {
  constructor(private readonly store: Store) {}

  async append(event: AuditEvent, at = new Date()): Promise<AuditEntry> {
    const entry = {
      at: at.toISOString(),
      actor: event.actor,
      tenant: event.tenant ?? null,
      action: event.action,
      workflowId: event.workflowId ?? null,
      batchId: event.batchId ?? null,
      fields: [...(event.fields ?? [])],
      source: event.source ?? null,
      outcome: event.outcome,
    };
    // One statement: the database chains it under the trail's lock (src/store/migrations/0002-audit-append.ts).
    const { rows } = await sql<{ seq: string; prev_hash: string; hash: string }>`
      select * from audit_append(${entry.at}, ${entry.actor}, ${entry.tenant}, ${entry.action}, ${entry.workflowId},
        ${entry.batchId}, ${entry.fields}::text[], ${entry.source}, ${entry.outcome})`.execute(this.store.db);
    const [written] = rows;
    if (!written) throw new Error('audit_append wrote no entry');
    return { ...entry, seq: Number(written.seq), prevHash: written.prev_hash, hash: written.hash };
  }

  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    let query = this.store.db.selectFrom('audit_entries').selectAll();
    if (filter.actor) query = query.where('actor', '=', filter.actor);
    if (filter.workflowId) query = query.where('workflow_id', '=', filter.workflowId);
    if (filter.batchId) query = query.where('batch_id', '=', filter.batchId);
    const action = filter.action;
    if (action) {
      const prefix = `${action.replace(/[\\%_]/g, (c) => `\\${c}`)}:%`;
      query = query.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', prefix)]));
    }
    if (filter.tenant) query = query.where('tenant', '=', filter.tenant);
    if (filter.tenants) {
      const tenants = [...filter.tenants];
      query = tenants.length > 0 ? query.where('tenant', 'in', tenants) : query.where(sql<boolean>`false`);
    }
    if (filter.since) query = query.where('at', '>=', filter.since);
    if (filter.until) query = query.where('at', '<', filter.until);
    if (filter.beforeSeq !== undefined) query = query.where('seq', '<', String(filter.beforeSeq));
    if (filter.afterSeq !== undefined) query = query.where('seq', '>', String(filter.afterSeq));
    const rows = await query
      .orderBy('seq', filter.newestFirst ? 'desc' : 'asc')
      .limit(filter.limit ?? 1000)
      .execute();
    return rows.map(toEntry);
  }

  /** Every entry the filter finds, oldest first, read a thousand at a time (an export of any size). */
  async *each(filter: Omit<AuditFilter, 'newestFirst' | 'limit'> = {}): AsyncGenerator<AuditEntry> {
    for (let after = filter.afterSeq ?? 0; ;) {
      const page = await this.list({ ...filter, afterSeq: after, limit: 1000 });
      yield* page;
      if (page.length < 1000) return;
      after = page[page.length - 1]!.seq;
    }
  }

  /**
   * Walks the chain from its oldest retained entry: each entry's hash must match its content, its `prevHash` the
   * entry before it, and the sequence must have no gap. Names the first entry that breaks it.
   */
  async verify(): Promise<Verification> {
    let previous: AuditEntry | undefined;
    let entries = 0;
    for (let after = 0; ;) {
      const rows = await this.store.db
        .selectFrom('audit_entries')
        .selectAll()
        .where('seq', '>', String(after))
        .orderBy('seq', 'asc')
        .limit(1000)
        .execute();
      if (rows.length === 0) return { ok: true, entries };
      for (const row of rows) {
        const entry = toEntry(row);
        const { hash, ...body } = entry;
        const broken = (why: string): Verification => ({ ok: false, entries, brokenAt: entry.seq, why });
        if (entryHash(body) !== hash) return broken('its content does not match its hash (edited or moved)');
        if (previous && entry.seq !== previous.seq + 1) {
          return broken(`entries ${previous.seq + 1}–${entry.seq - 1} are missing (deleted)`);
        }
        if (previous && entry.prevHash !== previous.hash) {
          return broken('it does not follow the entry before it (reordered or replaced)');
        }
        previous = entry;
        entries += 1;
      }
      after = previous?.seq ?? after;
    }
  }

  /** Entries older than `before` go (retention); the oldest left anchors the chain from then on. */
  async purge(before: Date): Promise<number> {
    const { numDeletedRows } = await this.store.db
      .deleteFrom('audit_entries')
      .where('at', '<', before)
      .executeTakeFirst();
    return Number(numDeletedRows);
  }
}

function toEntry(row: Selectable<AuditEntriesTable>): AuditEntry {
  return {
    seq: Number(row.seq),
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    tenant: row.tenant,
    action: row.action,
    workflowId: row.workflow_id,
    batchId: row.batch_id,
    fields: row.fields,
    source: row.source,
    outcome: row.outcome,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
