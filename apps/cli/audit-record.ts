import os from 'node:os';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import { withStore, type CliContext } from './context.js';

/**
 * Records what a command disclosed or changed in the audit trail (DATABASE_URL), as the person it acts for, before it
 * prints anything. Without a database there is no trail to write to, and the command goes on as before.
 */
export async function recordAccess(ctx: CliContext, event: Omit<AuditEvent, 'actor' | 'source'>): Promise<void> {
  if (!ctx.config().database.url) return;
  const { AuditTrail } = await import('../../src/audit/audit-trail.js');
  await withStore(ctx, (store) =>
    new AuditTrail(store).append({ ...event, actor: ctx.identity(), source: `cli@${os.hostname()}` }),
  );
}
