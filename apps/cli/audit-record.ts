import os from 'node:os';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import type { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { withStore, type CliContext } from './context.js';

/** The audit trail with this process's keys and checkpoint (AUDIT_KEYS, AUDIT_CHECKPOINT_FILE). */
export async function auditTrail(ctx: CliContext, store: Store): Promise<AuditTrail> {
  const { AuditTrail } = await import('../../src/audit/audit-trail.js');
  const { loadAuditSigning } = await import('../../src/audit/signing.js');
  return new AuditTrail(store, await loadAuditSigning(ctx.config()));
}

/**
 * Records what a command disclosed or changed in the audit trail (DATABASE_URL), as the person it acts for, before it
 * prints anything. Without a database there is no trail to write to, and the command goes on as before.
 */
export async function recordAccess(ctx: CliContext, event: Omit<AuditEvent, 'actor' | 'source'>): Promise<void> {
  if (!ctx.config().database.url) return;
  await withStore(ctx, async (store) =>
    (await auditTrail(ctx, store)).append({ ...event, actor: ctx.identity(), source: `cli@${os.hostname()}` }),
  );
}
