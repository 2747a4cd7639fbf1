import os from 'node:os';
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { mayAct, type ConsoleOperator } from '../../src/access/operators.js';
import { probed, recordableId } from '../../src/access/refusals.js';
import { sees, tenantOfDescription, tenantsToList, tenantToStart as startsFor } from '../../src/access/tenancy.js';
import type { TenantFilter } from '../../src/temporal/visibility-query.js';
import { describeBatch, type BatchView } from '../../src/batches/describe.js';
import { recordAccess } from './audit-record.js';
import { CliError, withStore, type CliContext } from './context.js';

/**
 * Whom the CLI acts for, and so what it may see and do (docs/operating/access-and-audit.md): the one place its commands
 * ask.
 *
 * `--as <name>` naming an active operator of the directory (DATABASE_URL) makes the CLI act within that operator's
 * tenants and role, as the console does for them (src/access/tenancy.ts, the one tenant wall): another tenant's
 * workflow or batch is reported exactly as one that does not exist, lists hold their tenants' only
 * (`tenantsToList(person.tenants)`) and naming another tenant is refused, a viewer reads only and sees member ids
 * masked. Each refusal is an audit entry (decision 84). A disabled operator
 * is refused. Anyone else (an `--as` the directory does not list, or none: the login name) is an administrator of
 * every tenant, as the CLI has always been: it holds the deployment's Temporal and codec credentials, so `--as` is not
 * a sign-in but the person an administrator's tool acts for.
 */
export interface Person extends ConsoleOperator {
  /** Whether the operator directory set the role and tenants (false: an administrator of every tenant). */
  fromDirectory: boolean;
}

const people = new WeakMap<CliContext, Promise<Person>>();

async function lookUp(ctx: CliContext): Promise<Person> {
  const name = ctx.named();
  const administrator: Person = {
    name: name ?? os.userInfo().username,
    role: 'admin',
    tenants: null,
    fromDirectory: false,
  };
  if (name === undefined || !ctx.config().database.url) return administrator;
  const { OperatorDirectory } = await import('../../src/access/operators.js');
  const entry = await withStore(ctx, (store) => new OperatorDirectory(store).entry(name));
  if (!entry) return administrator;
  if (entry.disabled) throw new CliError(`no active operator ${name}`);
  return { name: entry.name, role: entry.role, tenants: entry.tenants, fromDirectory: true };
}

/** The person the command acts for, looked up once per command. */
export function personOf(ctx: CliContext): Promise<Person> {
  let person = people.get(ctx);
  if (!person) {
    person = lookUp(ctx);
    people.set(ctx, person);
  }
  return person;
}

/**
 * A workflow the person names, described, with its tenant (null: started without one) for the audit entry of what is
 * then shown or done. One that is not theirs is thrown as one that does not exist (`no workflow <id>`, exit 1), before
 * anything else of it is read or done, and recorded as `action` refused: `denied` with its tenant when it exists,
 * `not-found` otherwise (decision 84).
 */
export async function visibleWorkflow(
  ctx: CliContext,
  client: Client,
  workflowId: string,
  action: string,
): Promise<{ description: WorkflowExecutionDescription; tenant: string | null }> {
  const { WorkflowNotFoundError } = await import('@temporalio/client');
  const person = await personOf(ctx);
  const description = await client.workflow
    .getHandle(workflowId)
    .describe()
    .catch(async (err: unknown) => {
      if (err instanceof WorkflowNotFoundError) {
        await recordAccess(ctx, { action, tenant: null, ...probed({ workflowId }), outcome: 'not-found' });
      }
      throw err;
    });
  const tenant = tenantOfDescription(description);
  if (!sees(person.tenants, tenant)) {
    await recordAccess(ctx, { action, tenant, ...probed({ workflowId }), outcome: 'denied' });
    throw new WorkflowNotFoundError('no such workflow', workflowId, undefined);
  }
  return { description, tenant };
}

/**
 * A batch the person names: one that does not exist or is not theirs is `no batch <id>` alike (exit 1), recorded as
 * `action` refused, as a workflow is.
 */
export async function visibleBatch(
  ctx: CliContext,
  client: Client,
  batchId: string,
  action: string,
): Promise<BatchView> {
  const person = await personOf(ctx);
  const view = await describeBatch(client, batchId);
  const tenant = view ? (view.tenant ?? null) : null;
  if (!view || !sees(person.tenants, tenant)) {
    await recordAccess(ctx, { action, tenant, ...probed({ batchId }), outcome: view ? 'denied' : 'not-found' });
    throw new CliError(`no batch ${batchId}`);
  }
  return view;
}

/**
 * Before an action (an answer, a review decision, a cancel, a resubmission): a viewer is refused, naming their role,
 * with a `denied` entry in the audit trail; nothing is sent to Temporal. Checked before the object is looked at, so
 * the refusal is the same whether it exists.
 */
export async function requireMayAct(
  ctx: CliContext,
  refused: { action: string; what: string; workflowId?: string; batchId?: string },
): Promise<void> {
  const person = await personOf(ctx);
  if (mayAct(person)) return;
  const { action, what, workflowId, batchId } = refused;
  await recordAccess(ctx, {
    action,
    ...(workflowId ? { workflowId } : {}),
    ...(batchId ? { batchId } : {}),
    outcome: 'denied',
  });
  throw new CliError(`your role (${person.role}, as ${person.name}) cannot ${what}; nothing was done`);
}

/**
 * The tenant of what the person starts (`start`, `batch`): the `--tenant` given, which for an operator of some
 * tenants must be one of theirs (the only one when they have one and give none). A viewer starts nothing.
 */
export async function tenantToStart(
  ctx: CliContext,
  named: string | undefined,
  refused: { action: string; what: string },
): Promise<string | undefined> {
  await requireMayAct(ctx, refused);
  const person = await personOf(ctx);
  const started = startsFor(person.tenants, named);
  if ('tenant' in started) return started.tenant;
  if (started.refused === 'another-tenant') {
    await recordAccess(ctx, { action: refused.action, tenant: recordableId(named) ?? null, outcome: 'denied' });
    throw new CliError(`--tenant ${named} is not one of the tenants ${person.name} acts for`);
  }
  throw new CliError(
    `--tenant: give one of the tenants ${person.name} acts for (${(person.tenants ?? []).join(', ')})`,
  );
}

/**
 * The tenants a list holds (`--tenant` narrows it): the person's. A `--tenant` that is not theirs is refused, as the
 * intake API refuses `GET /batches?tenant=<another>`, with a `denied` entry naming it.
 */
export async function tenantsToListFor(
  ctx: CliContext,
  named: string | undefined,
  action: string,
): Promise<TenantFilter | undefined> {
  const person = await personOf(ctx);
  if (named !== undefined && !sees(person.tenants, named)) {
    await recordAccess(ctx, { action, tenant: recordableId(named) ?? null, outcome: 'denied' });
    throw new CliError(`--tenant ${named} is not one of the tenants ${person.name} acts for`);
  }
  return tenantsToList(person.tenants, named);
}
