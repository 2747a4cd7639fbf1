import type { AuditTrail } from '../audit/audit-trail.js';
import { AdminError, administersAll, requireAdministered, type Administrator } from './administrator.js';
import { passwordProblem } from './operator-passwords.js';
import { OperatorError, type ListedOperator, type OperatorDirectory, type OperatorRole } from './operators.js';

export interface OperatorSpec {
  name: string;
  role: OperatorRole;
  /** null: every tenant. */
  tenants: string[] | null;
  /** None for an `oidc:` name: that person signs in through the identity provider. */
  password?: string;
}

export type OperatorChange = { role?: OperatorRole; tenants?: string[] | null; password?: string };

/**
 * Operators of the directory as an administrator changes them (docs/operating/access-and-audit.md): the rules both the
 * CLI and the console's pages follow, and the audit entries written before the change is reported
 * (`operator.<act>:<name>`). An administrator of some tenants sees and changes only operators all of whose tenants are
 * theirs, and gives no one a tenant beyond theirs; nobody disables themselves or takes away their own admin role (the
 * console would lock them out mid-change, and an installation could lose its last administrator).
 */
export class OperatorAdmin {
  constructor(
    private readonly directory: OperatorDirectory,
    private readonly trail: AuditTrail,
  ) {}

  async list(admin: Administrator): Promise<ListedOperator[]> {
    return (await this.directory.list()).filter((o) => administersAll(admin, o.tenants));
  }

  async create(admin: Administrator, spec: OperatorSpec): Promise<void> {
    requireAdministered(admin, spec.tenants, 'tenants');
    const problem = spec.password === undefined ? undefined : passwordProblem(spec.password);
    if (problem) throw new AdminError('password', problem);
    await this.changed(() => this.directory.create({ ...spec, by: admin.actor }));
    await this.record(admin, 'create', spec.name, spec.tenants);
  }

  /** A new role, tenants or password; what is not given stays. */
  async update(admin: Administrator, name: string, change: OperatorChange): Promise<void> {
    const before = await this.find(admin, name);
    if (change.role === undefined && change.tenants === undefined && change.password === undefined) {
      throw new AdminError('role', 'nothing to change: give a role, tenants or a password');
    }
    if (name === admin.operator && change.role !== undefined && change.role !== 'admin') {
      throw new AdminError('role', 'you cannot take away your own admin role; another administrator can');
    }
    if (change.tenants !== undefined) requireAdministered(admin, change.tenants, 'tenants');
    if (change.password !== undefined) {
      const problem = passwordProblem(change.password);
      if (problem) throw new AdminError('password', problem);
    }
    await this.changed(() => this.directory.update(name, change));
    await this.record(admin, 'set', name, before.tenants, change.tenants);
  }

  async disable(admin: Administrator, name: string): Promise<void> {
    if (name === admin.operator) throw new AdminError('name', 'you cannot disable yourself; another administrator can');
    const before = await this.find(admin, name);
    await this.changed(() => this.directory.disable(name));
    await this.record(admin, 'disable', name, before.tenants);
  }

  /** The operator, active and the administrator's; otherwise the same refusal as for a name nobody has. */
  async find(admin: Administrator, name: string): Promise<ListedOperator> {
    const found = (await this.list(admin)).find((o) => o.name === name && !o.disabledAt);
    if (!found) throw new AdminError('name', `no active operator ${name}`, 'not-found');
    return found;
  }

  private async changed(fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      // The directory's own refusals all concern the name: its form, or that it is taken or gone.
      if (err instanceof OperatorError) throw new AdminError('name', err.message.replace(/^name: /, ''));
      throw err;
    }
  }

  /**
   * One entry per tenant the operator had or has, so that each tenant's administrators find every change to an
   * operator of theirs; and one without a tenant when they had or have every tenant.
   */
  private async record(
    admin: Administrator,
    act: string,
    name: string,
    ...tenantSets: (readonly string[] | null | undefined)[]
  ): Promise<void> {
    const sets = tenantSets.filter((t) => t !== undefined);
    const named = [...new Set(sets.flatMap((t) => t ?? []))];
    const tenants = sets.some((t) => t === null) || named.length === 0 ? [...named, null] : named;
    for (const tenant of tenants) {
      await this.trail.append({
        actor: admin.actor,
        tenant,
        action: `operator.${act}:${name}`,
        ...(admin.source ? { source: admin.source } : {}),
        outcome: 'ok',
      });
    }
  }
}
