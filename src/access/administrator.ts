import { TenantSchema } from '../temporal/tenant.js';
import { sees } from './tenancy.js';

/**
 * A person who changes intake clients or operators (docs/operating/access-and-audit.md): an administrator of the
 * console, limited to their tenants, or a person at the CLI, who acts with every right (they hold the database's
 * credentials anyway).
 */
export interface Administrator {
  /** How the audit trail names them: `operator:<name>`, `cli:<name>`. */
  actor: string;
  /** Their name in the operator directory, for the rules about oneself; absent for the CLI. */
  operator?: string;
  /** The tenants they administer; null: every tenant. */
  tenants: readonly string[] | null;
  /** Where the request came from (an address), when there is one. */
  source?: string;
}

/** A change refused: `field` names what to correct (`tenant`, `scopes`, `password`, `id`, `name`), never a secret. */
export class AdminError extends Error {
  override name = 'AdminError';
  constructor(
    readonly field: string,
    readonly reason: string,
    /** `not-found` when the object does not exist or is another tenant's (the two are not told apart). */
    readonly kind: 'invalid' | 'not-found' = 'invalid',
  ) {
    super(`${field}: ${reason}`);
  }
}

/**
 * Whether an object of `tenant` is the administrator's to see and change: the tenant wall's rule (tenancy.ts). An
 * object of every tenant (`null`: a client or operator of all tenants) is for administrators of every tenant only.
 */
export const administers = (admin: Pick<Administrator, 'tenants'>, tenant: string | null): boolean =>
  sees(admin.tenants, tenant);

/** Whether every one of `tenants` (null: every tenant) is the administrator's: an operator of several, say. */
export const administersAll = (admin: Pick<Administrator, 'tenants'>, tenants: readonly string[] | null): boolean =>
  tenants === null ? admin.tenants === null : tenants.every((t) => administers(admin, t));

/**
 * The tenants chosen for a client or an operator: `all` (null), or the named ones, each a tenant identifier. Undefined
 * when neither is given and none is `required` (a change that keeps them). `field` is the form's or option's name.
 */
export function tenantChoice(
  choice: { tenants?: readonly string[]; all?: boolean },
  options: { field: string; required: boolean },
): string[] | null | undefined {
  const { field, required } = options;
  const named = choice.tenants?.filter((t) => t.length > 0) ?? [];
  if (named.length > 0 && choice.all) throw new AdminError(field, 'name tenants or choose all tenants, not both');
  if (choice.all) return null;
  if (named.length === 0) {
    if (required) throw new AdminError(field, 'name the tenants, or choose all tenants');
    return undefined;
  }
  if (named.some((t) => !TenantSchema.safeParse(t).success)) {
    throw new AdminError(field, 'expected tenant identifiers (letters, digits, . _ : @ -)');
  }
  return [...new Set(named)];
}

/** Refuses tenants the administrator does not administer, saying which they do. */
export function requireAdministered(admin: Administrator, tenants: readonly string[] | null, field: string): void {
  if (administersAll(admin, tenants)) return;
  throw new AdminError(
    field,
    tenants === null
      ? `only an administrator of every tenant may choose all tenants (you administer ${admin.tenants?.join(', ')})`
      : `you administer ${admin.tenants?.join(', ')} only`,
  );
}
