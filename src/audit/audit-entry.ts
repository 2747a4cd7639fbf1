import { createHash } from 'node:crypto';

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
  prevHash: string;
  hash: string;
}

/** One part of the canonical form: its UTF-8 length and itself, or `-` when absent (unambiguous whatever it holds). */
const part = (value: string | number | null) =>
  value === null ? '-' : `${Buffer.byteLength(String(value), 'utf8')}:${String(value)}`;

/**
 * The entry's hash: over its sequence number, its content and the previous entry's hash, in a fixed order. The
 * database computes the same when it appends (`audit_append`, src/store/migrations/0002-audit-append.ts).
 */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const canonical = [
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
    entry.prevHash,
  ]
    .map(part)
    .join('|');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
