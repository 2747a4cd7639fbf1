import type { Command } from 'commander';
import { CliError, withStore, type CliContext } from '../context.js';
import { commaList } from '../option-parsers.js';
import { table } from '../../../src/text-format.js';
import { auditTrail } from '../audit-record.js';

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
      const made = await asAdministrator(ctx, (admin) =>
        admin.create({ actor: ctx.identity(), tenants: null }, options),
      );
      console.log(`client ${made.id} made. Its key (shown only now; send it in x-api-key):\n${made.key}`);
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
        const person = { actor: ctx.identity(), tenants: null };
        // Recorded before it is said.
        const said = await asAdministrator(ctx, async (admin) =>
          name === 'rotate'
            ? `client ${id} rotated. Its new key (shown only now):\n${(await admin.rotate(person, id)).key}`
            : (await admin.revoke(person, id), `client ${id} revoked`),
        );
        console.log(said);
      });
  }
}

/** Runs `fn` with the rules and the trail of src/access/client-admin.ts; its refusals name the option to correct. */
async function asAdministrator<T>(
  ctx: CliContext,
  fn: (admin: import('../../../src/access/client-admin.js').ClientAdmin) => Promise<T>,
): Promise<T> {
  return withStore(ctx, async (store) => {
    const { ClientAdmin } = await import('../../../src/access/client-admin.js');
    const { IntakeClients } = await import('../../../src/access/intake-clients.js');
    const { AdminError } = await import('../../../src/access/administrator.js');
    try {
      return await fn(new ClientAdmin(new IntakeClients(store), await auditTrail(ctx, store)));
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      throw new CliError(err.field === 'id' ? err.reason : `--${err.field}: ${err.reason}`);
    }
  });
}
