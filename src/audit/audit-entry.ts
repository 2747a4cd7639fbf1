import { createHash, createHmac } from 'node:crypto';

/** One entry of the audit trail (docs/operating/access-and-audit.md): who did or saw what, never a patient value. */
export interface AuditEvent {
  /** `client:<id> (<name>)`, `api-key`, `operator:<name>`, `cli:<name>`, `codec:<user>`. */
  actor: string;
  tenant?: string | null;
  /** What was done: `verification.read`, `verification.start`, `run.answer`, `client.revoke`… */
  action: string;
  workflowId?: string;
  batchId?: string;
  /** The names of the patient-data fields disclosed or changed (`memberId`, `patient.dateOfBirth`), never values. */
  fields?: readonly string[];
  /** Where the request came from (an address), when there is one. */
  source?: string;
  /** `ok`, `denied`, `not-found`, `failed`… */
  outcome: string;
}

export interface AuditEntry extends Required<Omit<AuditEvent, 'tenant' | 'workflowId' | 'batchId' | 'source'>> {
  seq: number;
  at: string;
  tenant: string | null;
  workflowId: string | null;
  batchId: string | null;
  source: string | null;
  /**
   * The audit key whose HMAC `hash` is (src/audit/audit-keys.ts); null for an entry written before the trail was keyed,
   * whose `hash` is a plain SHA-256 (`legacyEntryHash`).
   */
  keyId: string | null;
  prevHash: string;
  hash: string;
}

/** The previous hash of the trail's first entry. */
export const FIRST_PREV_HASH = '0'.repeat(64);

/** One part of the canonical form: its UTF-8 length and itself, or `-` when absent (unambiguous whatever it holds). */
const part = (value: string | number | null) =>
  value === null ? '-' : `${Buffer.byteLength(String(value), 'utf8')}:${String(value)}`;

/** The entry's content in a fixed order, parts joined by `|`; a keyed entry's key id comes before the previous hash. */
function canonical(entry: Omit<AuditEntry, 'hash'>, keyed: boolean): string {
  return [
    entry.seq,
    entry.at,
    entry.actor,
    entry.tenant,
    entry.action,
    entry.workflowId,
    entry.batchId,
    entry.fields.join(','),
    entry.source,
    entry.outcome,
    ...(keyed ? [entry.keyId] : []),
    entry.prevHash,
  ]
    .map(part)
    .join('|');
}

/**
 * A keyed entry's hash: HMAC-SHA256, under the audit key `entry.keyId` names, of its sequence number, content, key id
 * and the previous entry's hash. Without the key nobody can write an entry that verifies, whatever they recompute.
 */
export function entryMac(key: Buffer, entry: Omit<AuditEntry, 'hash'>): string {
  return createHmac('sha256', key).update(canonical(entry, true), 'utf8').digest('hex');
}

/**
 * The hash of an entry written before the trail was keyed (`keyId` null): a plain SHA-256 of the same canonical form
 * without the key id, as the database's `audit_append` computed it (src/store/migrations/0002-audit-append.ts).
 */
export function legacyEntryHash(entry: Omit<AuditEntry, 'hash'>): string {
  return createHash('sha256').update(canonical(entry, false), 'utf8').digest('hex');
}
