import type { AuditTrail } from '../audit/audit-trail.js';
import { AdminError, administers, requireAdministered, tenantChoice, type Administrator } from './administrator.js';
import { IntakeClientError, type IntakeClient, type IntakeClients } from './intake-clients.js';
import { isScope } from './scopes.js';

/** What a person asks for when making a client; checked here, the same for the CLI and the console. */
export interface ClientSpec {
  name: string;
  /** The one tenant; ignored with `allTenants`. */
  tenant?: string;
  allTenants?: boolean;
  scopes: readonly string[];
}

/** A key made or rotated: shown once to the person who asked, then only its hash exists. */
export interface IssuedKey {
  id: string;
  key: string;
}

/**
 * Intake clients as an administrator changes them (docs/operating/access-and-audit.md): the rules both the CLI and the
 * console's pages follow, and one audit entry per change, written before the change is reported (actor, the client's
 * tenant, `client.<act>:<id>`). An administrator of some tenants sees and changes only those tenants' clients, and
 * never makes one of every tenant; another tenant's client is answered as one that does not exist.
 */
export class ClientAdmin {
  constructor(
    private readonly clients: IntakeClients,
    private readonly trail: AuditTrail,
  ) {}

  async list(admin: Administrator): Promise<IntakeClient[]> {
    return (await this.clients.list()).filter((c) => administers(admin, c.tenant));
  }

  async create(admin: Administrator, spec: ClientSpec): Promise<IssuedKey> {
    const name = spec.name.trim();
    if (name.length === 0 || name.length > 100) throw new AdminError('name', 'give a name of 1 to 100 characters');
    const tenants = tenantChoice(
      { tenants: spec.tenant === undefined ? [] : [spec.tenant.trim()], ...(spec.allTenants ? { all: true } : {}) },
      { field: 'tenant', required: true },
    );
    requireAdministered(admin, tenants ?? null, 'tenant');
    const unknown = spec.scopes.filter((s) => !isScope(s));
    if (unknown.length > 0 || spec.scopes.length === 0) {
      throw new AdminError('scopes', `unknown scope ${unknown.join(', ') || '(none given)'}`);
    }
    const tenant = tenants?.[0] ?? null;
    const made = await this.clients.create({ name, tenant, scopes: spec.scopes.filter(isScope), by: admin.actor });
    await this.record(admin, 'create', made.id, tenant);
    return made;
  }

  /** A new key for the client; the old one stops working at once. */
  async rotate(admin: Administrator, id: string): Promise<IssuedKey> {
    const client = await this.find(admin, id);
    const issued = await this.changed(() => this.clients.rotate(client.id));
    await this.record(admin, 'rotate', client.id, client.tenant);
    return issued;
  }

  async revoke(admin: Administrator, id: string): Promise<void> {
    const client = await this.find(admin, id);
    await this.changed(() => this.clients.revoke(client.id));
    await this.record(admin, 'revoke', client.id, client.tenant);
  }

  /** The client, active and the administrator's; otherwise the same refusal as for an id nobody has. */
  async find(admin: Administrator, id: string): Promise<IntakeClient> {
    const client = (await this.list(admin)).find((c) => c.id === id && !c.revokedAt);
    if (!client) throw new AdminError('id', `no active intake client ${id}`, 'not-found');
    return client;
  }

  private async changed<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // Revoked by someone else between the look-up and the change.
      if (err instanceof IntakeClientError) throw new AdminError('id', err.message, 'not-found');
      throw err;
    }
  }

  private record(admin: Administrator, act: string, id: string, tenant: string | null) {
    return this.trail.append({
      actor: admin.actor,
      tenant,
      action: `client.${act}:${id}`,
      ...(admin.source ? { source: admin.source } : {}),
      outcome: 'ok',
    });
  }
}
