import { secretsEqual } from '../contract/secrets-equal.js';
import type { Store } from '../store/database.js';
import { hashSecret, newKey, parseKey } from './api-keys.js';
import type { Principal } from './principal.js';
import { isScope, type Scope } from './scopes.js';

/** An intake client as listed: never its secret or its hash. */
export interface IntakeClient {
  id: string;
  name: string;
  tenant: string | null;
  scopes: Scope[];
  createdAt: string;
  createdBy: string;
  rotatedAt?: string;
  revokedAt?: string;
}

export class IntakeClientError extends Error {
  override name = 'IntakeClientError';
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);

/**
 * Intake clients' credentials (docs/operating/access-and-audit.md): each bound to one tenant or to all, and to scopes.
 * Every request looks its key up (an indexed read), so a revoked key is refused by every process from the next request
 * on.
 */
export class IntakeClients {
  constructor(private readonly store: Store) {}

  async create(spec: { name: string; tenant: string | null; scopes: Scope[]; by: string }) {
    const key = newKey();
    await this.store.db
      .insertInto('intake_clients')
      .values({
        id: key.id,
        name: spec.name,
        tenant: spec.tenant,
        scopes: spec.scopes,
        secret_hash: key.secretHash,
        created_by: spec.by,
        rotated_at: null,
        revoked_at: null,
      })
      .execute();
    return { id: key.id, key: key.key };
  }

  async list(): Promise<IntakeClient[]> {
    const rows = await this.store.db.selectFrom('intake_clients').selectAll().orderBy('created_at').execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      tenant: r.tenant,
      scopes: r.scopes.filter(isScope),
      createdAt: new Date(r.created_at).toISOString(),
      createdBy: r.created_by,
      ...(r.rotated_at ? { rotatedAt: iso(r.rotated_at) } : {}),
      ...(r.revoked_at ? { revokedAt: iso(r.revoked_at) } : {}),
    }));
  }

  /** A new secret for the same client; the old key stops working at once. */
  async rotate(id: string): Promise<{ id: string; key: string }> {
    const key = newKey(id);
    const { numUpdatedRows } = await this.store.db
      .updateTable('intake_clients')
      .set({ secret_hash: key.secretHash, rotated_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new IntakeClientError(`no active intake client ${id}`);
    return { id, key: key.key };
  }

  async revoke(id: string): Promise<void> {
    const { numUpdatedRows } = await this.store.db
      .updateTable('intake_clients')
      .set({ revoked_at: new Date() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) throw new IntakeClientError(`no active intake client ${id}`);
  }

  /** The principal a presented key stands for, or undefined: unknown, wrong, rotated away or revoked. */
  async authenticate(presented: string): Promise<Principal | undefined> {
    const parsed = parseKey(presented);
    if (!parsed) return undefined;
    const row = await this.store.db
      .selectFrom('intake_clients')
      .select(['id', 'name', 'tenant', 'scopes', 'secret_hash'])
      .where('id', '=', parsed.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    if (!secretsEqual(hashSecret(parsed.secret), row.secret_hash)) return undefined;
    return { actor: `client:${row.id} (${row.name})`, tenant: row.tenant, scopes: new Set(row.scopes.filter(isScope)) };
  }
}
