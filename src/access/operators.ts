import type { Store } from '../store/database.js';
import { operatorEntry, parseOperators, verifyOperator } from './operator-passwords.js';

export const OPERATOR_ROLES = ['admin', 'operator', 'viewer'] as const;
/** `admin`: everything, operators included; `operator`: answers runs, decides reviews, acts on batches; `viewer`: reads, patient data masked. */
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A signed-in person of the console as every page sees them. */
export interface ConsoleOperator {
  name: string;
  role: OperatorRole;
  /** The tenants they see; null: every tenant. */
  tenants: string[] | null;
}

export interface ListedOperator extends ConsoleOperator {
  createdAt: string;
  createdBy: string;
  disabledAt?: string;
}

export class OperatorError extends Error {
  override name = 'OperatorError';
}

/**
 * Names of people who sign in through the organisation's OpenID Connect provider: `oidc:` and their verified email or
 * their subject. The colon keeps them apart from password operators (no CONSOLE_OPERATORS or password name holds one);
 * an entry of the directory under such a name has no password and sets the person's role and tenants (`operators
 * create oidc:…`) once bound to the identity that first signs in under that name (`forIdentity`).
 */
export const OIDC_NAME_PREFIX = 'oidc:';
const OIDC_NAME = /^oidc:\S{1,254}$/u;
const PASSWORD_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

export const isOidcName = (name: string): boolean => OIDC_NAME.test(name);

/** A person as the organisation's OpenID Connect provider signed them: its issuer and their subject there. */
export interface OidcIdentity {
  issuer: string;
  subject: string;
}

/** The directory's answer for an OpenID Connect identity (`OperatorDirectory.forIdentity`). */
export type IdentityEntry =
  | { entry: ConsoleOperator & { disabled: boolean } }
  /** The entry of the name the person would take is bound to someone else. */
  | { taken: true }
  /** No entry is theirs: the provider's claims decide. */
  | { none: true };

/** Whether the person may act (answer runs, decide reviews, cancel, resubmit or cancel batches): not a viewer. */
export const mayAct = (operator: Pick<ConsoleOperator, 'role'>): boolean => operator.role !== 'viewer';

/**
 * The console's operators kept in the project's database (docs/operating/access-and-audit.md), beside the ones of
 * CONSOLE_OPERATORS (each an administrator of every tenant). Looked up on every request, so a changed role or a
 * disabled operator takes effect at once, in every console process.
 */
export class OperatorDirectory {
  constructor(private readonly store: Store) {}

  /** An operator; one of an `oidc:` name has no password (`password` undefined): they sign in through the provider. */
  async create(spec: { name: string; role: OperatorRole; tenants: string[] | null; password?: string; by: string }) {
    const oidc = isOidcName(spec.name);
    if (!oidc && !PASSWORD_NAME.test(spec.name)) {
      throw new OperatorError('name: letters, digits and . _ @ - only, at most 64 (or oidc: and an email or subject)');
    }
    if (oidc !== (spec.password === undefined)) {
      throw new OperatorError(oidc ? 'password: none for an oidc: name' : 'password: required');
    }
    const { numInsertedOrUpdatedRows } = await this.store.db
      .insertInto('operators')
      .values({
        name: spec.name,
        role: spec.role,
        tenants: spec.tenants,
        // The column holds no password for an oidc: name: nothing it could hold would ever verify (see verify).
        password: spec.password === undefined ? '' : await operatorEntry(spec.name, spec.password),
        created_by: spec.by,
        disabled_at: null,
      })
      .onConflict((c) => c.column('name').doNothing())
      .executeTakeFirst();
    if (numInsertedOrUpdatedRows === 0n) throw new OperatorError(`operator ${spec.name} exists already`);
  }

  async list(): Promise<ListedOperator[]> {
    const rows = await this.store.db.selectFrom('operators').selectAll().orderBy('name').execute();
    return rows.map((r) => ({
      name: r.name,
      role: r.role,
      tenants: r.tenants,
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.created_by,
      ...(r.disabled_at ? { disabledAt: new Date(r.disabled_at).toISOString() } : {}),
    }));
  }

  /** A new role, tenants or password; what is not given stays. */
  async update(name: string, change: { role?: OperatorRole; tenants?: string[] | null; password?: string }) {
    if (change.password !== undefined && isOidcName(name)) throw new OperatorError('password: none for an oidc: name');
    const { numUpdatedRows } = await this.store.db
      .updateTable('operators')
      .set({
        ...(change.role ? { role: change.role } : {}),
        ...(change.tenants !== undefined ? { tenants: change.tenants } : {}),
        ...(change.password !== undefined ? { password: await operatorEntry(name, change.password) } : {}),
      })
      .where('name', '=', name)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new OperatorError(`no active operator ${name}`);
  }

  async disable(name: string): Promise<void> {
    const { numUpdatedRows } = await this.store.db
      .updateTable('operators')
      .set({ disabled_at: new Date() })
      .where('name', '=', name)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new OperatorError(`no active operator ${name}`);
  }

  /** The active operator of that name, or undefined. */
  async find(name: string): Promise<ConsoleOperator | undefined> {
    const row = await this.store.db
      .selectFrom('operators')
      .select(['name', 'role', 'tenants'])
      .where('name', '=', name)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    return row && { name: row.name, role: row.role, tenants: row.tenants };
  }

  /**
   * The operator of that name, active or disabled: what an OpenID Connect sign-in maps its person by (a disabled one
   * is refused, not left to the provider's claims).
   */
  async entry(name: string): Promise<(ConsoleOperator & { disabled: boolean }) | undefined> {
    const row = await this.store.db
      .selectFrom('operators')
      .select(['name', 'role', 'tenants', 'disabled_at'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row && { name: row.name, role: row.role, tenants: row.tenants, disabled: row.disabled_at !== null };
  }

  /**
   * The entry of an identity the provider vouched for: the one bound to it, else the unbound entry made for `name`
   * (its verified email or its subject: `oidc-claims.ts`), bound to it now, so that from then on nobody else's
   * identity can select it, whatever their claims. The binding is one conditional update: two identities racing for
   * one entry cannot both have it.
   */
  async forIdentity(identity: OidcIdentity, name: string): Promise<IdentityEntry> {
    const bound = await this.boundTo(identity);
    if (bound) return { entry: bound };
    const row = await this.store.db
      .selectFrom('operators')
      .select(['oidc_subject'])
      .where('name', '=', name)
      .executeTakeFirst();
    if (!row) return { none: true };
    if (row.oidc_subject !== null) return { taken: true };
    await this.store.db
      .updateTable('operators')
      .set({ oidc_issuer: identity.issuer, oidc_subject: identity.subject })
      .where('name', '=', name)
      .where('oidc_subject', 'is', null)
      .execute()
      // 23505: the identity was bound to another entry since it was looked up (its unique index): theirs stands.
      .catch((err: unknown) => {
        if ((err as { code?: unknown }).code !== '23505') throw err;
      });
    const now = await this.boundTo(identity);
    return now ? { entry: now } : { taken: true };
  }

  private async boundTo(identity: OidcIdentity) {
    const row = await this.store.db
      .selectFrom('operators')
      .select(['name', 'role', 'tenants', 'disabled_at'])
      .where('oidc_issuer', '=', identity.issuer)
      .where('oidc_subject', '=', identity.subject)
      .executeTakeFirst();
    return row && { name: row.name, role: row.role, tenants: row.tenants, disabled: row.disabled_at !== null };
  }

  /** The operator when `password` is theirs; undefined otherwise, in about the same time whether the name exists. */
  async verify(name: string, password: string): Promise<ConsoleOperator | undefined> {
    const row = await this.store.db
      .selectFrom('operators')
      .selectAll()
      .where('name', '=', name)
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    // An oidc: name has no password: it is checked against nobody's, and refused like a wrong one.
    const entries = row && !isOidcName(row.name) ? parseOperators(row.password) : new Map();
    const verified = await verifyOperator(entries, name, password);
    return verified && row ? { name: row.name, role: row.role, tenants: row.tenants } : undefined;
  }
}
