import { sql } from 'kysely';
import type { Store } from '../store/database.js';
import { entryHash, GENESIS_HASH, type AuditEntry, type AuditEvent } from './audit-entry.js';

/** One lock for every writer of the trail, in every process: entries are chained one after another. */
const CHAIN_LOCK = 7_310_001;

export interface AuditFilter {
  actor?: string;
  workflowId?: string;
  batchId?: string;
  action?: string;
  since?: Date;
  until?: Date;
  limit?: number;
}

export type Verification =
  { ok: true; entries: number } | { ok: false; entries: number; brokenAt: number; why: string };

/**
 * The audit trail (DESIGN §13): append-only and tamper-evident. Each entry carries the hash of the one before it, so an
 * edited, deleted or reordered entry breaks the chain at that entry (`verify`). Callers append before they answer:
 * a disclosure whose entry could not be written is not made.
 */
export class AuditTrail {
  constructor(private readonly store: Store) {}

  async append(event: AuditEvent, at = new Date()): Promise<AuditEntry> {
    return this.store.db.transaction().execute(async (tx) => {
      await sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`.execute(tx);
      const last = await tx
        .selectFrom('audit_entries')
        .select(['seq', 'hash'])
        .orderBy('seq', 'desc')
        .limit(1)
        .executeTakeFirst();
      const body: Omit<AuditEntry, 'hash'> = {
        seq: last ? Number(last.seq) + 1 : 1,
        at: at.toISOString(),
        actor: event.actor,
        tenant: event.tenant ?? null,
        action: event.action,
        workflowId: event.workflowId ?? null,
        batchId: event.batchId ?? null,
        fields: [...(event.fields ?? [])],
        source: event.source ?? null,
        outcome: event.outcome,
        prevHash: last?.hash ?? GENESIS_HASH,
      };
      const entry = { ...body, hash: entryHash(body) };
      await tx
        .insertInto('audit_entries')
        .values({
          seq: entry.seq,
          at,
          actor: entry.actor,
          tenant: entry.tenant,
          action: entry.action,
          workflow_id: entry.workflowId,
          batch_id: entry.batchId,
          fields: [...entry.fields],
          source: entry.source,
          outcome: entry.outcome,
          prev_hash: entry.prevHash,
          hash: entry.hash,
        })
        .execute();
      return entry;
    });
  }

  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    let query = this.store.db.selectFrom('audit_entries').selectAll();
    if (filter.actor) query = query.where('actor', '=', filter.actor);
    if (filter.workflowId) query = query.where('workflow_id', '=', filter.workflowId);
    if (filter.batchId) query = query.where('batch_id', '=', filter.batchId);
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.since) query = query.where('at', '>=', filter.since);
    if (filter.until) query = query.where('at', '<', filter.until);
    const rows = await query
      .orderBy('seq', 'asc')
      .limit(filter.limit ?? 1000)
      .execute();
    return rows.map(toEntry);
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

function toEntry(row: {
  seq: string;
  at: Date;
  actor: string;
  tenant: string | null;
  action: string;
  workflow_id: string | null;
  batch_id: string | null;
  fields: string[];
  source: string | null;
  outcome: string;
  prev_hash: string;
  hash: string;
}): AuditEntry {
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
