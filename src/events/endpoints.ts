import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Store } from '../store/database.js';
import type { EndpointStatus, EventEndpointsTable } from '../store/tables.js';
import { newEndpointSecret, type SecretBox } from './secret-box.js';

/** An endpoint as shown to its tenant: never its secrets. */
export interface EndpointView {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  description?: string;
  status: EndpointStatus;
  disabledReason?: string;
  disabledAt?: string;
  createdAt: string;
  updatedAt: string;
  /** During a rotation: until when the previous secret signs beside the new one. */
  previousSecretExpiresAt?: string;
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string | null;
  /** true: disabled by its owner (reason `disabled`); false: active again. */
  disabled?: boolean;
}

/** What the delivery activity needs: where, and the secrets that sign now (the current one first). */
export interface SigningEndpoint {
  url: string;
  status: EndpointStatus;
  secrets: string[];
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : undefined);

function view(row: Selectable<EventEndpointsTable>, now = Date.now()): EndpointView {
  const rotating = row.previous_secret_expires_at && new Date(row.previous_secret_expires_at).getTime() > now;
  return {
    id: row.id,
    tenant: row.tenant,
    url: row.url,
    events: row.events,
    ...(row.description !== null ? { description: row.description } : {}),
    status: row.status,
    ...(row.disabled_reason ? { disabledReason: row.disabled_reason } : {}),
    ...(row.disabled_at ? { disabledAt: iso(row.disabled_at) } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    ...(rotating ? { previousSecretExpiresAt: iso(row.previous_secret_expires_at) } : {}),
  };
}

/**
 * A tenant's event endpoints (docs/integrating/events.md). Every read and change names the tenant (null: an all-tenant
 * caller), so another tenant's endpoint is found as one that does not exist.
 */
export class EventEndpoints {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
  ) {}

  /** A new endpoint; its secret is answered here once and kept only sealed. */
  async create(spec: { tenant: string; url: string; events: string[]; description?: string }) {
    const secret = newEndpointSecret();
    const row = await this.store.db
      .insertInto('event_endpoints')
      .values({
        id: `ep_${randomBytes(12).toString('hex')}`,
        tenant: spec.tenant,
        url: spec.url,
        events: spec.events,
        description: spec.description ?? null,
        status: 'active',
        disabled_reason: null,
        disabled_at: null,
        secret: this.box.seal(secret),
        previous_secret: null,
        previous_secret_expires_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { endpoint: view(row), secret };
  }

  /** One tenant's endpoints, several tenants' (an operator of some), or every tenant's (null). */
  async list(tenant: string | readonly string[] | null): Promise<EndpointView[]> {
    let query = this.store.db.selectFrom('event_endpoints').selectAll().orderBy('created_at').orderBy('id');
    if (typeof tenant === 'string') query = query.where('tenant', '=', tenant);
    else if (tenant !== null) {
      if (tenant.length === 0) return [];
      query = query.where('tenant', 'in', tenant);
    }
    return (await query.execute()).map((r) => view(r));
  }

  async get(id: string, tenant: string | null): Promise<EndpointView | undefined> {
    let query = this.store.db.selectFrom('event_endpoints').selectAll().where('id', '=', id);
    if (tenant !== null) query = query.where('tenant', '=', tenant);
    const row = await query.executeTakeFirst();
    return row && view(row);
  }

  async update(id: string, tenant: string | null, change: EndpointChange): Promise<EndpointView | undefined> {
    let query = this.store.db
      .updateTable('event_endpoints')
      .set({
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.events !== undefined ? { events: change.events } : {}),
        ...(change.description !== undefined ? { description: change.description } : {}),
        ...(change.disabled === true
          ? { status: 'disabled', disabled_reason: 'disabled', disabled_at: new Date() }
          : {}),
        ...(change.disabled === false ? { status: 'active', disabled_reason: null, disabled_at: null } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id);
    if (tenant !== null) query = query.where('tenant', '=', tenant);
    const row = await query.returningAll().executeTakeFirst();
    return row && view(row);
  }

  async delete(id: string, tenant: string | null): Promise<EndpointView | undefined> {
    let query = this.store.db.deleteFrom('event_endpoints').where('id', '=', id);
    if (tenant !== null) query = query.where('tenant', '=', tenant);
    const row = await query.returningAll().executeTakeFirst();
    return row && view(row);
  }

  /** A new secret; the current one keeps signing beside it for `graceSeconds` (0: stops at once). */
  async rotate(id: string, tenant: string | null, graceSeconds: number) {
    const row = await this.get(id, tenant);
    if (!row) return undefined;
    const current = await this.store.db
      .selectFrom('event_endpoints')
      .select('secret')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const secret = newEndpointSecret();
    const expires = new Date(Date.now() + graceSeconds * 1000);
    const updated = await this.store.db
      .updateTable('event_endpoints')
      .set({
        secret: this.box.seal(secret),
        previous_secret: graceSeconds > 0 ? current.secret : null,
        previous_secret_expires_at: graceSeconds > 0 ? expires : null,
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { endpoint: view(updated), secret };
  }

  /**
   * Stops deliveries to an active endpoint (`gone`, `failing`) for what an attempt at `seenAt` was answered; false when
   * it was not active, or changed after `seenAt` (an operator re-enabled or corrected it: a late 410 of the endpoint as
   * it was must not disable it as it is now).
   */
  async disable(id: string, reason: string, seenAt?: Date): Promise<boolean> {
    let update = this.store.db
      .updateTable('event_endpoints')
      .set({ status: 'disabled', disabled_reason: reason, disabled_at: new Date(), updated_at: new Date() })
      .where('id', '=', id)
      .where('status', '=', 'active');
    if (seenAt) update = update.where('updated_at', '<=', seenAt);
    const { numUpdatedRows } = await update.executeTakeFirst();
    return numUpdatedRows > 0n;
  }

  /** Whether the endpoint is active now. */
  async isActive(id: string): Promise<boolean> {
    const row = await this.store.db
      .selectFrom('event_endpoints')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.status === 'active';
  }

  /** The URL and the secrets signing now, opened; undefined once deleted. */
  async signing(id: string, now = Date.now()): Promise<SigningEndpoint | undefined> {
    const row = await this.store.db.selectFrom('event_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? signingEndpoint(row, this.box, now) : undefined;
  }
}

/** An endpoint row's URL and the secrets signing now (the previous one too during a rotation's grace), opened. */
export function signingEndpoint(
  row: Pick<
    Selectable<EventEndpointsTable>,
    'url' | 'status' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
  >,
  box: SecretBox,
  now = Date.now(),
): SigningEndpoint {
  const previous =
    row.previous_secret && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at).getTime() > now
      ? [box.open(row.previous_secret)]
      : [];
  return { url: row.url, status: row.status, secrets: [box.open(row.secret), ...previous] };
}
