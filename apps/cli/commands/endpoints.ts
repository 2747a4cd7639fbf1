import type { Command } from 'commander';
import { CliError, withStore, type CliContext } from '../context.js';
import { commaList } from '../option-parsers.js';
import { table } from '../../../src/text-format.js';
import { EndpointRefused, endpointSpec, ROTATION_GRACE, tenantToCreate } from '../../../src/events/endpoint-rules.js';
import type { EndpointView } from '../../../src/events/endpoints.js';
import type { EventServices } from '../../../src/events/services.js';
import { keysetPager } from '../../../src/pages.js';
import { limitOption, pageRequest, pageTokenOption, printNextPage, type PageOptions } from '../page-options.js';

/** Runs `fn` with the event services (the database's). */
async function withEvents<T>(ctx: CliContext, fn: (events: EventServices) => Promise<T>): Promise<T> {
  const { eventServices, secretBox } = await import('../../../src/events/services.js');
  return withStore(ctx, async (store, config) => fn(eventServices(store, await secretBox(config))));
}

async function audited(ctx: CliContext, action: string, tenant: string): Promise<void> {
  const { recordAccess } = await import('../audit-record.js');
  await recordAccess(ctx, { action, tenant, outcome: 'ok' });
}

/** Applies a rule the intake API and the console apply too; its refusal names the option. */
function rule<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof EndpointRefused) throw new CliError(`--${err.field}: ${err.reason}`);
    throw err;
  }
}

/** The URL, events and description checked; an update may leave the URL or the events as they are (a stand-in). */
const checked = (o: { url?: string; events?: string[]; description?: string }) =>
  rule(() => endpointSpec({ url: 'https://example.com/', events: ['verification.created'], ...o }));

export function registerEndpoints(program: Command, ctx: CliContext): void {
  const endpoints = program
    .command('endpoints')
    .description("tenants' event endpoints: signed, retried deliveries of the event catalogue")
    .addHelpText(
      'after',
      `
A secret is shown once, when the endpoint is made or its secret rotated. Every change is in the audit trail and is
told to the tenant's dispatcher at once. Needs DATABASE_URL and Temporal. docs/integrating/events.md has the catalogue.

Examples:
  $ eligibility endpoints create --tenant clinic-42 --url https://pms.example/hooks --events verification.completed,verification.failed
  $ eligibility endpoints list --tenant clinic-42
  $ eligibility endpoints rotate ep_0123abcd --grace-hours 24
  $ eligibility endpoints deliveries ep_0123abcd
  $ eligibility endpoints redeliver ep_0123abcd --failed-since 2026-11-20T00:00:00Z`,
    );

  endpoints
    .command('create')
    .description('subscribe an endpoint and print its secret, once')
    .requiredOption('--tenant <tenant>', 'whose events it receives')
    .requiredOption('--url <url>', 'where events are POSTed (http or https)')
    .requiredOption('--events <list>', 'comma-separated event types', commaList)
    .option('--description <text>')
    .action(async (o: { tenant: string; url: string; events: string[]; description?: string }) => {
      const spec = checked(o);
      const tenant = rule(() => tenantToCreate(null, o.tenant));
      await withEvents(ctx, async (events) => {
        const made = await events.endpoints.create({ ...spec, tenant });
        const { recordAccess } = await import('../audit-record.js');
        await recordAccess(ctx, { action: `event-endpoint.create:${made.endpoint.id}`, tenant, outcome: 'ok' });
        console.log(`endpoint ${made.endpoint.id} made. Its signing secret (shown only now):\n${made.secret}`);
      });
    });

  endpoints
    .command('list')
    .description('endpoints, oldest first, a page at a time: their events and status (a disabled one says why)')
    .option('--tenant <tenant>', 'one tenant only')
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .option('--json', 'print the page as JSON, as GET /event-endpoints answers it')
    .action(async (o: { tenant?: string; json?: boolean } & PageOptions) => {
      // Paged as GET /event-endpoints pages them: read whole, by the store's order (created, then id).
      const paged = keysetPager<EndpointView>('event-endpoints', pageRequest(o), (e) => [e.createdAt, e.id], 'asc');
      await withStore(ctx, async (store, config) => {
        const { EventEndpoints } = await import('../../../src/events/endpoints.js');
        const { secretBox } = await import('../../../src/events/services.js');
        const { items, nextPageToken } = paged(
          await new EventEndpoints(store, await secretBox(config)).list(o.tenant ?? null),
        );
        if (o.json) return console.log(JSON.stringify({ endpoints: items, nextPageToken }, null, 2));
        const state = (e: EndpointView) => (e.status === 'active' ? 'active' : `disabled (${e.disabledReason})`);
        console.log(
          table(
            ['id', 'tenant', 'url', 'events', 'state'],
            items.map((e) => [e.id, e.tenant, e.url, e.events.join(','), state(e)]),
          ),
        );
        printNextPage(nextPageToken);
      });
    });

  endpoints
    .command('update <id>')
    .description("change an endpoint's URL, events or description; --enable starts a disabled one again")
    .option('--url <url>')
    .option('--events <list>', 'comma-separated event types', commaList)
    .option('--description <text>')
    .option('--enable', 'deliver to it again')
    .action(async (id: string, o: { url?: string; events?: string[]; description?: string; enable?: boolean }) => {
      checked(o);
      await change(id, 'update', { ...o, ...(o.enable ? { disabled: false } : {}) });
    });

  endpoints
    .command('disable <id>')
    .description('stop deliveries to an endpoint (update --enable starts them again)')
    .action((id: string) => change(id, 'update', { disabled: true }));

  endpoints
    .command('delete <id>')
    .description('delete an endpoint and its deliveries log')
    .action(async (id: string) => {
      await withEvents(ctx, async (events) => {
        const deleted = await events.endpoints.delete(id, null);
        if (!deleted) throw new CliError(`no event endpoint ${id}`);
        await audited(ctx, `event-endpoint.delete:${id}`, deleted.tenant);
        console.log(`endpoint ${id} deleted`);
      });
    });

  endpoints
    .command('rotate <id>')
    .description('a new secret, printed once; the old one keeps signing beside it for the grace period')
    .option('--grace-hours <hours>', 'how long the old secret still signs', '24')
    .action(async (id: string, o: { graceHours: string }) => {
      const hours = Number(o.graceHours);
      const most = ROTATION_GRACE.maxSeconds / 3600;
      if (!Number.isFinite(hours) || hours < 0 || hours > most) throw new CliError(`--grace-hours: 0 to ${most}`);
      await withEvents(ctx, async (events) => {
        const rotated = await events.endpoints.rotate(id, null, Math.round(hours * 3600));
        if (!rotated) throw new CliError(`no event endpoint ${id}`);
        await audited(ctx, `event-endpoint.rotate:${id}`, rotated.endpoint.tenant);
        console.log(`endpoint ${id}: its new signing secret (shown only now):\n${rotated.secret}`);
      });
    });

  endpoints
    .command('deliveries <id>')
    .description('its delivery attempts, newest first, a page at a time: status, latency, the next retry')
    .addOption(limitOption())
    .addOption(pageTokenOption())
    .option('--json', 'print the page as JSON, as GET /event-endpoints/:id/deliveries answers it')
    .action(async (id: string, o: { json?: boolean } & PageOptions) => {
      await withStore(ctx, async (store) => {
        const { EventLog } = await import('../../../src/events/event-log.js');
        const page = await new EventLog(store).deliveries(id, pageRequest(o));
        if (o.json) return console.log(JSON.stringify(page, null, 2));
        console.log(
          table(
            ['at', 'event', 'type', 'attempt', 'status', 'code', 'ms', 'next retry'],
            page.deliveries.map((d) => [
              d.attemptedAt,
              d.eventId,
              d.eventType,
              String(d.attempt),
              d.status,
              String(d.statusCode ?? d.errorType ?? ''),
              String(d.latencyMs ?? ''),
              d.nextRetryAt ?? '',
            ]),
          ),
        );
        printNextPage(page.nextPageToken);
      });
    });

  endpoints
    .command('redeliver <id>')
    .description('deliver one kept event again (same webhook-id), or every one not acknowledged since a time')
    .option('--event <eventId>')
    .option('--failed-since <iso>')
    .action(async (id: string, o: { event?: string; failedSince?: string }) => {
      if (!o.event === !o.failedSince) throw new CliError('give --event or --failed-since');
      await withEvents(ctx, async (events) => {
        const endpoint = await events.endpoints.get(id, null);
        if (!endpoint) throw new CliError(`no event endpoint ${id}`);
        const { redeliver } = await import('../../../src/events/endpoint-changes.js');
        const choice = o.event ? { eventId: o.event } : { failedSince: new Date(o.failedSince!) };
        const queued = await redeliver(events, endpoint, choice).catch((err: unknown) => {
          if (!(err instanceof EndpointRefused)) throw err;
          throw new CliError(
            err.kind === 'disabled' ? `endpoint ${id} is disabled: update --enable first` : `--event: ${err.reason}`,
          );
        });
        const { recordAccess } = await import('../audit-record.js');
        await recordAccess(ctx, { action: `event-endpoint.redeliver:${id}`, tenant: endpoint.tenant, outcome: 'ok' });
        console.log(`${queued} event(s) queued for ${id}`);
      });
    });

  async function change(id: string, what: string, patch: Parameters<EventServices['endpoints']['update']>[2]) {
    await withEvents(ctx, async (events) => {
      const { enable: _e, ...rest } = patch as typeof patch & { enable?: boolean };
      const updated = await events.endpoints.update(id, null, rest);
      if (!updated) throw new CliError(`no event endpoint ${id}`);
      await audited(ctx, `event-endpoint.${what}:${id}`, updated.tenant);
      const { endpointChanged } = await import('../../../src/events/endpoint-changes.js');
      await endpointChanged(events, updated);
      console.log(`endpoint ${id}: ${updated.status}`);
    });
  }
}
