import type { Config } from '../config.js';
import { loadAuditKeys, type AuditKeys } from './audit-keys.js';

/** What keys a trail's entries and where its head is checkpointed (docs/operating/access-and-audit.md). */
export interface AuditSigning {
  keys: AuditKeys;
  /** Written after every append, read by `verify`; undefined: no checkpoint (a trail of tests). */
  checkpointFile?: string;
}

/** A process's signing, from its configuration: AUDIT_KEYS (or its file, or derived) and AUDIT_CHECKPOINT_FILE. */
export async function loadAuditSigning(config: Pick<Config, 'audit' | 'codec'>): Promise<AuditSigning> {
  return { keys: await loadAuditKeys(config), checkpointFile: config.audit.checkpointFile };
}
