import type { Scope } from './scopes.js';

/** Who a request acts for: an intake client, or the single-tenant shortcut key. */
export interface Principal {
  /** How the audit trail names it: `client:<id> (<name>)`, `api-key`. */
  actor: string;
  /** The one tenant it acts for; null: every tenant. */
  tenant: string | null;
  scopes: ReadonlySet<Scope>;
}

export const mayDo = (principal: Principal, scope: Scope): boolean =>
  principal.scopes.has(scope) || principal.scopes.has('admin');
