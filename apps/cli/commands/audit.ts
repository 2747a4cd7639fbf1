import type { Command } from 'commander';
import { z } from 'zod';
import { pageToken, readPageToken } from '../../../src/pages.js';
import { auditTrail } from '../audit-record.js';
import { CliError, withStore, type CliContext } from '../context.js';
import { limitOption, pageTokenOption, printNextPage, type PageOptions } from '../page-options.js';
import { table } from '../../../src/text-format.js';

const when = (value: string): Date => {
  const at = new Date(value);
  if (Number.isNaN(at.getTime()))
    throw new CliError(`expected a date or time (2026-11-25, 2026-11-25T14:00Z), got ${value}`);
  return at;
};

interface ListOptions extends PageOptions {
  actor?: string;
  workflow?: string;
  batch?: string;
  action?: string;
  since?: Date;
  until?: Date;
  jsonl?: boolean;
}

/** Where a page of the trail ends: the last entry's sequence number. */
const AuditCursor = z.object({ seq: z.number().int().min(0) });

export function registerAudit(program: Command, ctx: CliContext): void {
  const audit = program
    .command('audit')
    .description('the audit trail: every disclosure of patient data and every change, who made it, and when')
    .addHelpText(
      'after',
      `
Entries name the fields disclosed, never their values. Each carries an HMAC, under a key the database never holds
(AUDIT_KEYS), of its content and of the entry before it, and the newest is checkpointed in a signed file
(AUDIT_CHECKPOINT_FILE): \`audit verify\` names the first entry that was edited, deleted or moved, and a cut-off end.
Reading the trail is itself recorded.

Examples:
  $ eligibility audit list --actor "client:3f2a9c0d1e4b (Clinic 42 PMS)" --since 2026-11-01
  $ eligibility audit list --workflow verification-caller-17 --jsonl > caller-17.jsonl
  $ eligibility audit verify`,
    );

  audit
    .command('list')
    .description('entries, oldest first, filtered, a page at a time; --jsonl exports them as JSON Lines')
    .option('--actor <actor>', 'who (`client:<id> (<name>)`, `operator:<name>`, `cli:<name>`, `api-key`)')
    .option('--workflow <workflowId>', 'about one workflow')
    .option('--batch <batchId>', 'about one batch')
    .option('--action <action>', 'one action (`verification.read`, `run.answer`, `client.revoke`, …)')
    .option('--since <time>', 'at or after (ISO 8601)', when)
    .option('--until <time>', 'before (ISO 8601)', when)
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .option('--jsonl', 'one JSON object a line, for export (the next page is named on stderr)')
    .action(async (options: ListOptions) => {
      const after = options.pageToken ? readPageToken('audit', options.pageToken, AuditCursor) : undefined;
      await withStore(ctx, async (store) => {
        const trail = await auditTrail(ctx, store);
        const found = await trail.list({
          ...(options.actor ? { actor: options.actor } : {}),
          ...(options.workflow ? { workflowId: options.workflow } : {}),
          ...(options.batch ? { batchId: options.batch } : {}),
          ...(options.action ? { action: options.action } : {}),
          ...(options.since ? { since: options.since } : {}),
          ...(options.until ? { until: options.until } : {}),
          ...(after ? { afterSeq: after.seq } : {}),
          // One more than the page: whether there is a next page is known, not guessed.
          limit: options.limit + 1,
        });
        const entries = found.slice(0, options.limit);
        const last = entries.at(-1);
        const next = found.length > entries.length && last ? pageToken('audit', { seq: last.seq }) : undefined;
        // Reading the trail is itself recorded; an export as such (the console's pages name them alike).
        await trail.append({
          actor: ctx.identity(),
          action: options.jsonl ? 'audit.export' : 'audit.read',
          outcome: 'ok',
        });
        if (options.jsonl) {
          for (const entry of entries) console.log(JSON.stringify(entry));
          return printNextPage(next, 'stderr');
        }
        console.log(
          table(
            ['#', 'at', 'actor', 'tenant', 'action', 'object', 'fields', 'source', 'outcome'],
            entries.map((e) => [
              e.seq,
              e.at,
              e.actor,
              e.tenant ?? '',
              e.action,
              e.workflowId ?? e.batchId ?? '',
              e.fields.join(','),
              e.source ?? '',
              e.outcome,
            ]),
          ),
        );
        printNextPage(next);
      });
    });

  audit
    .command('verify')
    .description('check the whole chain and its checkpoint; exit 1 naming the first entry edited, deleted or moved')
    .action(async () => {
      await withStore(ctx, async (store) => {
        const result = await (await auditTrail(ctx, store)).verify();
        if (!result.ok) {
          throw new CliError(`the audit trail is broken at entry ${result.brokenAt}: ${result.why}`);
        }
        const legacy = result.legacy ? `; the first ${result.legacy} from before keys, by the unkeyed rule` : '';
        const anchored = result.checkpoint ? `; the checkpoint's entry ${result.checkpoint} is there as written` : '';
        console.log(
          `the audit trail holds: ${result.entries} entries, each following the one before it${legacy}${anchored}`,
        );
      });
    });

  audit
    .command('purge')
    .description('remove entries older than AUDIT_RETENTION_DAYS (default six years)')
    .action(async () => {
      await withStore(ctx, async (store, config) => {
        const trail = await auditTrail(ctx, store);
        const before = new Date(Date.now() - config.audit.retentionDays * 86_400_000);
        const removed = await trail.purge(before);
        await trail.append({ actor: ctx.identity(), action: 'audit.purge', outcome: `removed ${removed}` });
        console.log(`${removed} entries older than ${before.toISOString()} removed`);
      });
    });
}
