import { InvalidArgumentError, type Command } from 'commander';
import { CliError, withStore, type CliContext } from '../context.js';
import { commaList } from '../option-parsers.js';
import { table } from '../../../src/text-format.js';

export function registerClients(program: Command, ctx: CliContext): void {
  const clients = program
    .command('clients')
    .description('intake clients: each has its own key, bound to one tenant (or all) and to scopes')
    .addHelpText(
      'after',
      `
A key is shown once, when it is made or rotated: only its hash is kept. Every change is in the audit trail.
Scopes: verifications:write, verifications:read, runs:answer, batches:write, batches:read, events:manage, admin.

Examples:
  $ eligibility clients create --name "Clinic 42 PMS" --tenant clinic-42 --scopes verifications:write,verifications:read
  $ eligibility clients list
  $ eligibility clients rotate 3f2a9c0d1e4b
  $ eligibility clients revoke 3f2a9c0d1e4b`,
    );

  clients
    .command('create')
    .description('make a client and print its key, once')
    .requiredOption('--name <name>', 'who it is for (a system, a team)')
    .option('--tenant <tenant>', 'the one tenant it acts for')
    .option('--all-tenants', 'act for every tenant (an administrator)')
    .requiredOption('--scopes <list>', 'comma-separated scopes', commaList)
    .action(async (options: { name: string; tenant?: string; allTenants?: boolean; scopes: string[] }) => {
      const { isScope } = await import('../../../src/access/scopes.js');
      const { TenantSchema } = await import('../../../src/temporal/tenant.js');
      if (options.tenant === undefined && !options.allTenants) {
        throw new CliError('--tenant: name the tenant it acts for, or give --all-tenants');
      }
      if (options.tenant !== undefined && options.allTenants) throw new CliError('--tenant: not with --all-tenants');
      if (options.tenant !== undefined && !TenantSchema.safeParse(options.tenant).success) {
        throw new CliError('--tenant: expected a tenant identifier (letters, digits, . _ : @ -)');
      }
      const unknown = options.scopes.filter((s) => !isScope(s));
      if (unknown.length > 0 || options.scopes.length === 0) {
        throw new InvalidArgumentError(`--scopes: unknown scope ${unknown.join(', ') || '(none given)'}`);
      }
      await withStore(ctx, async (store) => {
        const { IntakeClients } = await import('../../../src/access/intake-clients.js');
        const { AuditTrail } = await import('../../../src/audit/audit-trail.js');
        const made = await new IntakeClients(store).create({
          name: options.name,
          tenant: options.tenant ?? null,
          scopes: options.scopes.filter(isScope),
          by: ctx.identity(),
        });
        await new AuditTrail(store).append({
          actor: ctx.identity(),
          tenant: options.tenant ?? null,
          action: `client.create:${made.id}`,
          outcome: 'ok',
        });
        console.log(`client ${made.id} made. Its key (shown only now; send it in x-api-key):\n${made.key}`);
      });
    });

  clients
    .command('list')
    .description('every client: its id, tenant, scopes and state (never a key)')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      await withStore(ctx, async (store) => {
        const { IntakeClients } = await import('../../../src/access/intake-clients.js');
        const all = await new IntakeClients(store).list();
        if (options.json) return console.log(JSON.stringify(all, null, 2));
        console.log(
          table(
            ['id', 'name', 'tenant', 'scopes', 'created', 'state'],
            all.map((c) => [
              c.id,
              c.name,
              c.tenant ?? '(all)',
              c.scopes.join(','),
              c.createdAt,
              c.revokedAt ? `revoked ${c.revokedAt}` : c.rotatedAt ? `rotated ${c.rotatedAt}` : 'active',
            ]),
          ),
        );
      });
    });

  for (const [name, description] of [
    ['rotate', 'give a client a new key (printed once); the old one stops working at once'],
    ['revoke', 'stop a client: its key is refused from the next request on, by every process'],
  ] as const) {
    clients
      .command(name)
      .description(description)
      .argument('<id>', "the client's id (`clients list`)")
      .action(async (id: string) => {
        await withStore(ctx, async (store) => {
          const { IntakeClients, IntakeClientError } = await import('../../../src/access/intake-clients.js');
          const { AuditTrail } = await import('../../../src/audit/audit-trail.js');
          const intakeClients = new IntakeClients(store);
          let said: string;
          try {
            said =
              name === 'rotate'
                ? `client ${id} rotated. Its new key (shown only now):\n${(await intakeClients.rotate(id)).key}`
                : (await intakeClients.revoke(id), `client ${id} revoked`);
          } catch (err) {
            if (err instanceof IntakeClientError) throw new CliError(err.message);
            throw err;
          }
          // Recorded before it is said.
          await new AuditTrail(store).append({ actor: ctx.identity(), action: `client.${name}:${id}`, outcome: 'ok' });
          console.log(said);
        });
      });
  }
}
