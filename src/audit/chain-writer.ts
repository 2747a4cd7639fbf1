import type { Store } from '../store/database.js';
import { entryMac, FIRST_PREV_HASH, type AuditEntry } from './audit-entry.js';
import type { AuditKeys } from './audit-keys.js';
import type { AuditHead } from './checkpoint.js';

/** An entry before it has its place in the chain. */
export type AuditContent = Omit<AuditEntry, 'seq' | 'keyId' | 'prevHash' | 'hash'>;

/** How often a writer tries again when other processes keep taking the next number first. */
const MAX_ATTEMPTS = 50;

/**
 * Writes entries onto the end of the chain, keyed in this process (the database never holds the key). The next number
 * is the primary key, so two writers cannot both follow the same entry: the one that loses reads the end again and
 * follows the winner. This process's appends go one at a time, and the end it wrote last is remembered, so while no
 * other process writes an append is one statement, as when the database keyed nothing.
 */
export class ChainWriter {
  private last: AuditHead | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly keys: AuditKeys,
  ) {}

  write(content: AuditContent): Promise<AuditEntry> {
    const written = this.queue.then(() => this.insert(content));
    this.queue = written.catch(() => undefined);
    return written;
  }

  private async insert(content: AuditContent): Promise<AuditEntry> {
    const { current } = this.keys;
    for (let attempt = 1; ; attempt++) {
      const last = this.last ?? (await this.end());
      const body = {
        ...content,
        seq: (last?.seq ?? 0) + 1,
        keyId: current.id,
        prevHash: last?.hash ?? FIRST_PREV_HASH,
      };
      const entry: AuditEntry = { ...body, hash: entryMac(current.key, body) };
      try {
        await this.store.db
          .insertInto('audit_entries')
          .values({
            seq: entry.seq,
            at: new Date(entry.at),
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
            key_id: entry.keyId,
          })
          .execute();
        this.last = entry;
        return entry;
      } catch (err) {
        this.last = undefined;
        // 23505: another process wrote this number first.
        if ((err as { code?: string }).code !== '23505' || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  private async end(): Promise<AuditHead | undefined> {
    const row = await this.store.db
      .selectFrom('audit_entries')
      .select(['seq', 'hash'])
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && { seq: Number(row.seq), hash: row.hash };
  }
}
