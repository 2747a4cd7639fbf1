import { isOidcName, OIDC_NAME_PREFIX, OPERATOR_ROLES, type OperatorRole } from '../../src/access/operators.js';
import { TenantSchema } from '../../src/temporal/tenant.js';
import type { OidcClaims, OidcSettings } from './oidc-client.js';

/** Why a person the provider vouched for is still not let in; logged, never with a claim's value. */
export type OidcRefusal =
  | 'no-identifier'
  | 'role-claim-missing'
  | 'role-claim-invalid'
  | 'tenants-claim-missing'
  | 'tenants-claim-invalid'
  | 'operator-disabled'
  /** The directory entry of the name they would take is bound to another person of the provider. */
  | 'identity-of-another';

/**
 * The console name of the person: `oidc:` and their email, lowercased, when the provider says it verified it
 * (`email_verified: true`: an address anyone could type must not pick up someone else's name or directory entry),
 * else their subject, which the provider keeps stable and unique. Undefined when neither makes a name.
 */
export function oidcOperatorName(claims: OidcClaims): string | undefined {
  const email = typeof claims.email === 'string' && claims.email_verified === true ? claims.email : undefined;
  const name = `${OIDC_NAME_PREFIX}${email?.toLowerCase() ?? claims.sub}`;
  return isOidcName(name) ? name : undefined;
}

/**
 * The role a role claim gives: one of admin, operator and viewer, as a text or as the one such value in a list (a
 * provider's group list may hold others). Anything else, several of them included, gives none.
 */
function roleOf(value: unknown): OperatorRole | undefined {
  const given: unknown[] = Array.isArray(value) ? value : [value];
  const roles = new Set(OPERATOR_ROLES.filter((role) => given.includes(role)));
  return roles.size === 1 ? [...roles][0] : undefined;
}

/**
 * The tenants a tenants claim gives: a list of tenant ids, or one text of them separated by commas; `*` alone is every
 * tenant (null). `empty` when it names none; undefined when it is not such a list.
 */
function tenantsOf(value: unknown): string[] | null | 'empty' | undefined {
  const given: unknown = typeof value === 'string' ? value.split(',').map((t) => t.trim()) : value;
  if (!Array.isArray(given) || !given.every((t) => typeof t === 'string')) return undefined;
  const tenants = [...new Set(given.filter(Boolean))];
  if (tenants.length === 0) return 'empty';
  if (tenants.includes('*')) return tenants.length === 1 ? null : undefined;
  return tenants.every((t) => TenantSchema.safeParse(t).success) ? tenants : undefined;
}

/**
 * The role and tenants the provider's claims give the person (OIDC_ROLE_CLAIM, OIDC_TENANTS_CLAIM), or why none: a
 * person without a role, or who would see no tenant, is not let in.
 */
export function claimedAccess(
  claims: OidcClaims,
  settings: Pick<OidcSettings, 'roleClaim' | 'tenantsClaim'>,
): { role: OperatorRole; tenants: string[] | null } | { refused: OidcRefusal } {
  const roleClaim = claims[settings.roleClaim];
  const tenantsClaim = claims[settings.tenantsClaim];
  if (roleClaim === undefined || roleClaim === null) return { refused: 'role-claim-missing' };
  const role = roleOf(roleClaim);
  if (!role) return { refused: 'role-claim-invalid' };
  const tenants = tenantsClaim === undefined || tenantsClaim === null ? 'empty' : tenantsOf(tenantsClaim);
  if (tenants === 'empty') return { refused: 'tenants-claim-missing' };
  if (tenants === undefined) return { refused: 'tenants-claim-invalid' };
  return { role, tenants };
}
