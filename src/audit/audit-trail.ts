import { sql, type Selectable } from 'kysely';
import type { AuditEntriesTable } from '../store/tables.js';
import type { Store } from '../store/database.js';
import type { AuditEntry, AuditEvent } from './audit-entry.js';
import { ephemeralAuditKeys } from './audit-keys.js';
import { ChainWriter } from './chain-writer.js';
import { CheckpointWriter } from './checkpoint.js';
import type { AuditSigning } from './signing.js';
import { verifyChain, type Verification } from './verify-chain.js';

export type { Verification } from './verify-chain.js';

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

/**
 * The audit trail (docs/operating/access-and-audit.md): append-only and tamper-evident. Each entry carries an HMAC,
 * under a key the database never sees, of its content and of the entry before it, so an edited, deleted or reordered
 * entry breaks the chain at that entry; after each append the newest entry is checkpointed in a signed file, so a cut
 * end shows too (`verify`). Callers append before they answer: a disclosure whose entry could not be written is not
 * made. Without `signing` (tests of other parts) entries are keyed with a key of this object alone, unchecked.
 */
export class AuditTrail {
  private readonly chain: ChainWriter;
  private readonly checkpoints: CheckpointWriter | undefined;

  constructor(
    private readonly store: Store,
    private readonly signing: AuditSigning = { keys: ephemeralAuditKeys() },
  ) {
    this.chain = new ChainWriter(store, signing.keys);
    const file = signing.checkpointFile;
    this.checkpoints = file === undefined ? undefined : new CheckpointWriter(file, signing.keys);
  }

  async append(event: AuditEvent, at = new Date()): Promise<AuditEntry> {
    const content = {
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
    const entry = await this.chain.write(content);
    await this.checkpoints?.cover(entry);
    return entry;
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

  /** Checks the whole chain and the checkpoint (src/audit/verify-chain.ts); names the first entry that breaks it. */
  async verify(): Promise<Verification> {
    return verifyChain(this.each(), this.signing.keys, this.signing.checkpointFile);
  }

  /**
   * Entries older than `before` go (retention); the oldest left anchors the chain from then on. The newest always
   * stays, so the next entry follows it and the checkpoint still finds it.
   */
  async purge(before: Date): Promise<number> {
    const { numDeletedRows } = await this.store.db
      .deleteFrom('audit_entries')
      .where('at', '<', before)
      .where('seq', '<', (eb) => eb.selectFrom('audit_entries').select((e) => e.fn.max('seq').as('last')))
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
    keyId: row.key_id,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}
