import type { Command } from 'commander';
import { CliError, withStore, type CliContext } from '../context.js';
import { commaList, oneOf } from '../option-parsers.js';
import { readPassword } from '../read-password.js';
import { table } from '../../../src/text-format.js';
import { OIDC_NAME_PREFIX, OPERATOR_ROLES, type OperatorRole } from '../../../src/access/operators.js';
import { auditTrail } from '../audit-record.js';

interface TenantOptions {
  tenants?: string[];
  allTenants?: boolean;
}

/** The tenants an operator sees, from --tenants or --all-tenants (null: all), by the rules of src/access. */
async function tenantsOf(options: TenantOptions, required: boolean): Promise<string[] | null | undefined> {
  const { AdminError, tenantChoice } = await import('../../../src/access/administrator.js');
  try {
    return tenantChoice(
      { ...(options.tenants ? { tenants: options.tenants } : {}), ...(options.allTenants ? { all: true } : {}) },
      { field: 'tenants', required },
    );
  } catch (err) {
    if (err instanceof AdminError) throw new CliError(`--tenants: ${err.reason}`);
    throw err;
  }
}

/** `--tenants a,b` or `--all-tenants`: the tenants an operator sees (read by `tenantsOf`). */
const withTenantOptions = (command: Command): Command =>
  command
    .option('--tenants <list>', 'comma-separated tenants they see', commaList)
    .option('--all-tenants', 'they see every tenant');

export function registerOperators(program: Command, ctx: CliContext): void {
  const operators = program
    .command('operators')
    .description("the console's operators in the database: a role and the tenants each sees")
    .addHelpText(
      'after',
      `
Roles: admin (everything), operator (answers runs, decides reviews, acts on batches), viewer (reads, patient data
masked). Passwords are piped on stdin, never given as arguments; only their scrypt hash is kept. CONSOLE_OPERATORS
still works beside them: each of its entries is an admin of every tenant. A name oidc:<email or subject> is a person
who signs in through the organisation's OpenID Connect provider (OIDC_ISSUER): no password; the entry's role, tenants
and state win over the provider's claims. Every change is in the audit trail.

Examples:
  $ printf %s 'a long passphrase' | eligibility operators create ana --role operator --tenants clinic-1,clinic-2
  $ eligibility operators create oidc:ben@clinic.example --role viewer --tenants clinic-1
  $ eligibility operators set ana --role viewer
  $ eligibility operators disable ana`,
    );
  const role = oneOf<OperatorRole>(OPERATOR_ROLES);

  const create = operators
    .command('create')
    .description('add an operator; the password comes on stdin (none for an oidc: name)')
    .argument('<name>', 'the name they sign in with')
    .requiredOption('--role <role>', OPERATOR_ROLES.join(' | '), role);
  withTenantOptions(create).action(async (name: string, options: TenantOptions & { role: OperatorRole }) => {
    const tenants = (await tenantsOf(options, true))!;
    // A person of the organisation's OpenID Connect provider proves who they are there: no password to read.
    const oidc = name.startsWith(OIDC_NAME_PREFIX);
    const password = oidc ? undefined : await readPassword();
    await change(ctx, (admin, person) =>
      admin.create(person, { name, role: options.role, tenants, ...(password ? { password } : {}) }),
    );
    const how = oidc ? ' through the OpenID Connect provider' : '';
    console.log(`operator ${name} (${options.role}, ${tenants?.join(', ') ?? 'every tenant'}) can sign in${how}`);
  });

  const set = operators
    .command('set')
    .description("change an operator's role or tenants, or (--password) their password from stdin")
    .argument('<name>', 'the operator')
    .option('--role <role>', OPERATOR_ROLES.join(' | '), role)
    .option('--password', 'read a new password from stdin');
  withTenantOptions(set).action(
    async (name: string, options: TenantOptions & { role?: OperatorRole; password?: boolean }) => {
      const tenants = await tenantsOf(options, false);
      const password = options.password ? await readPassword() : undefined;
      if (!options.role && tenants === undefined && password === undefined) {
        throw new CliError('nothing to change: give --role, --tenants, --all-tenants or --password');
      }
      await change(ctx, (admin, person) =>
        admin.update(person, name, {
          ...(options.role ? { role: options.role } : {}),
          ...(tenants !== undefined ? { tenants } : {}),
          ...(password !== undefined ? { password } : {}),
        }),
      );
      console.log(`operator ${name} changed; it applies from their next request`);
    },
  );

  operators
    .command('disable')
    .description('stop an operator: their session ends at their next request')
    .argument('<name>', 'the operator')
    .action(async (name: string) => {
      await change(ctx, (admin, person) => admin.disable(person, name));
      console.log(`operator ${name} disabled`);
    });

  operators
    .command('list')
    .description('every operator: role, tenants, state (never a password)')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      await withStore(ctx, async (store) => {
        const { OperatorDirectory } = await import('../../../src/access/operators.js');
        const all = await new OperatorDirectory(store).list();
        if (options.json) return console.log(JSON.stringify(all, null, 2));
        console.log(
          table(
            ['name', 'role', 'tenants', 'created', 'state'],
            all.map((o) => [
              o.name,
              o.role,
              o.tenants?.join(',') ?? '(all)',
              o.createdAt,
              o.disabledAt ? `disabled ${o.disabledAt}` : 'active',
            ]),
          ),
        );
      });
    });
}

/**
 * A change to the directory by the rules of src/access/operator-admin.ts, which records it in the audit trail before
 * the command says it is done. The person at the CLI administers every tenant.
 */
async function change(
  ctx: CliContext,
  fn: (
    admin: import('../../../src/access/operator-admin.js').OperatorAdmin,
    person: import('../../../src/access/administrator.js').Administrator,
  ) => Promise<void>,
): Promise<void> {
  await withStore(ctx, async (store) => {
    const { OperatorDirectory } = await import('../../../src/access/operators.js');
    const { OperatorAdmin } = await import('../../../src/access/operator-admin.js');
    const { AdminError } = await import('../../../src/access/administrator.js');
    try {
      await fn(new OperatorAdmin(new OperatorDirectory(store), await auditTrail(ctx, store)), {
        actor: ctx.identity(),
        tenants: null,
      });
    } catch (err) {
      if (!(err instanceof AdminError)) throw err;
      throw new CliError(err.field === 'name' ? err.reason : `--${err.field}: ${err.reason}`);
    }
  });
}
