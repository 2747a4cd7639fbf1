import { InvalidArgumentError, type Command } from 'commander';
import { CliError, withStore, type CliContext } from '../context.js';
import { commaList, oneOf } from '../option-parsers.js';
import { readPassword } from '../read-password.js';
import { table } from '../../../src/text-format.js';
import { OIDC_NAME_PREFIX, OPERATOR_ROLES, type OperatorRole } from '../../../src/access/operators.js';

interface TenantOptions {
  tenants?: string[];
  allTenants?: boolean;
}

/** The tenants an operator sees, from --tenants or --all-tenants (null: all), each a tenant identifier. */
async function tenantsOf(options: TenantOptions, required: boolean): Promise<string[] | null | undefined> {
  if (options.tenants && options.allTenants) throw new CliError('--tenants: not with --all-tenants');
  if (options.allTenants) return null;
  if (!options.tenants) {
    if (required) throw new CliError('--tenants: name the tenants the operator sees, or give --all-tenants');
    return undefined;
  }
  const { TenantSchema } = await import('../../../src/temporal/tenant.js');
  if (options.tenants.length === 0 || options.tenants.some((t) => !TenantSchema.safeParse(t).success)) {
    throw new InvalidArgumentError('--tenants: expected tenant identifiers (letters, digits, . _ : @ -)');
  }
  return options.tenants;
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
    await change(ctx, name, 'operator.create', (directory) =>
      directory.create({ name, role: options.role, tenants, ...(password ? { password } : {}), by: ctx.identity() }),
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
      await change(ctx, name, 'operator.set', (directory) =>
        directory.update(name, {
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
      await change(ctx, name, 'operator.disable', (directory) => directory.disable(name));
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

/** A change to the directory, recorded in the audit trail before the command says it is done. */
async function change(
  ctx: CliContext,
  name: string,
  action: string,
  fn: (directory: import('../../../src/access/operators.js').OperatorDirectory) => Promise<void>,
): Promise<void> {
  await withStore(ctx, async (store) => {
    const { OperatorDirectory, OperatorError } = await import('../../../src/access/operators.js');
    const { AuditTrail } = await import('../../../src/audit/audit-trail.js');
    try {
      await fn(new OperatorDirectory(store));
    } catch (err) {
      if (err instanceof OperatorError) throw new CliError(err.message);
      throw err;
    }
    await new AuditTrail(store).append({ actor: ctx.identity(), action: `${action}:${name}`, outcome: 'ok' });
  });
}
