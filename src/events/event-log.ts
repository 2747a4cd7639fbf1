import { sql } from 'kysely';
import { z } from 'zod';
import { pageToken, readPageToken, type PageRequest } from '../pages.js';
import type { Store } from '../store/database.js';
import type { DeliveryStatus } from '../store/tables.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';

/** How long events are kept for redelivery (issue 34). */
export const EVENT_RETENTION_DAYS = 30;

/** Where a page of deliveries ends: the last attempt's time (ms) and id. */
const DeliveryCursor = z.object({ at: z.number().int().min(0).max(8.64e15), id: z.string().regex(/^[0-9]{1,19}$/) });

/** One attempt as the deliveries log shows it. */
export interface DeliveryView {
  eventId: string;
  eventType: string;
  attempt: number;
  status: DeliveryStatus;
  statusCode?: number;
  errorType?: string;
  latencyMs?: number;
  attemptedAt: string;
  nextRetryAt?: string;
}

export interface AttemptRecord {
  eventId: string;
  endpointId: string;
  status: DeliveryStatus;
  statusCode?: number;
  errorType?: string;
  latencyMs?: number;
  attemptedAt: Date;
  nextRetryAt?: Date;
}

/** An attempt's row in the deliveries log: its number is one more than the endpoint's attempts at the event so far. */
export function attemptRow(a: AttemptRecord) {
  return {
    event_id: a.eventId,
    endpoint_id: a.endpointId,
    attempt: sql<number>`(select count(*)::int + 1 from event_deliveries
      where event_id = ${a.eventId} and endpoint_id = ${a.endpointId} and attempt > 0)`,
    status: a.status,
    status_code: a.statusCode ?? null,
    error_type: a.errorType ?? null,
    latency_ms: a.latencyMs ?? null,
    attempted_at: a.attemptedAt,
    next_retry_at: a.nextRetryAt ?? null,
  };
}

/** Events kept for replay and every delivery attempt (docs/integrating/events.md). */
export class EventLog {
  constructor(private readonly store: Store) {}

  /** Keeps events once, as they were first kept (a redelivery sends the same body). */
  async keep(...events: OutboundEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.store.db
      .insertInto('events')
      .values(
        events.map((e) => ({
          id: e.id,
          tenant: e.tenant,
          type: e.type,
          payload: JSON.stringify(e),
          created_at: new Date(e.timestamp),
        })),
      )
      .onConflict((c) => c.column('id').doNothing())
      .execute();
  }

  /** Appends an attempt. */
  async recordAttempt(a: AttemptRecord): Promise<void> {
    await this.store.db.insertInto('event_deliveries').values(attemptRow(a)).execute();
  }

  /** Events an endpoint will not get now (it stopped first): kept, each with an `undelivered` line, for redelivery. */
  async keepUndelivered(endpointId: string, events: readonly OutboundEvent[]): Promise<void> {
    if (events.length === 0) return;
    const exists = await this.store.db
      .selectFrom('event_endpoints')
      .select('id')
      .where('id', '=', endpointId)
      .executeTakeFirst();
    // A deleted endpoint's log went with it: there is nothing to redeliver to.
    if (!exists) return;
    await this.keep(...events);
    await this.store.db
      .deleteFrom('event_outbox')
      .where('endpoint_id', '=', endpointId)
      .where(
        'event_id',
        'in',
        events.map((e) => e.id),
      )
      .execute();
    await this.store.db
      .insertInto('event_deliveries')
      .values(
        events.map((e) => ({
          event_id: e.id,
          endpoint_id: endpointId,
          attempt: 0,
          status: 'undelivered' as const,
          status_code: null,
          error_type: null,
          latency_ms: null,
          attempted_at: new Date(),
          next_retry_at: null,
        })),
      )
      .execute();
  }

  /**
   * A page of an endpoint's attempts, newest first. The cursor is the last attempt's time and id, so attempts made in
   * the same millisecond are neither skipped nor shown twice; attempts are written with JavaScript dates
   * (milliseconds), so the time in the cursor compares exactly.
   */
  async deliveries(
    endpointId: string,
    page: PageRequest,
  ): Promise<{ deliveries: DeliveryView[]; nextPageToken?: string }> {
    const after = page.pageToken ? readPageToken('deliveries', page.pageToken, DeliveryCursor) : undefined;
    let query = this.store.db
      .selectFrom('event_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select([
        'd.id',
        'd.event_id',
        'e.type',
        'd.attempt',
        'd.status',
        'd.status_code',
        'd.error_type',
        'd.latency_ms',
        'd.attempted_at',
        'd.next_retry_at',
      ])
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('d.attempted_at', 'desc')
      .orderBy('d.id', 'desc')
      // One more than the page: whether there is a next page is known, not guessed.
      .limit(page.limit + 1);
    if (after) query = query.where(sql<boolean>`(d.attempted_at, d.id) < (${new Date(after.at)}, ${after.id})`);
    const rows = await query.execute();
    const shown = rows.slice(0, page.limit);
    const last = shown.at(-1);
    const deliveries = shown.map((r) => ({
      eventId: r.event_id,
      eventType: r.type,
      attempt: r.attempt,
      status: r.status,
      ...(r.status_code !== null ? { statusCode: r.status_code } : {}),
      ...(r.error_type !== null ? { errorType: r.error_type } : {}),
      ...(r.latency_ms !== null ? { latencyMs: r.latency_ms } : {}),
      attemptedAt: new Date(r.attempted_at).toISOString(),
      ...(r.next_retry_at ? { nextRetryAt: new Date(r.next_retry_at).toISOString() } : {}),
    }));
    return {
      deliveries,
      ...(rows.length > shown.length && last
        ? { nextPageToken: pageToken('deliveries', { at: new Date(last.attempted_at).getTime(), id: String(last.id) }) }
        : {}),
    };
  }

  /** A kept event of the tenant's (null: any tenant's). */
  async event(id: string, tenant: string | null): Promise<OutboundEvent | undefined> {
    let query = this.store.db.selectFrom('events').select('payload').where('id', '=', id);
    if (tenant !== null) query = query.where('tenant', '=', tenant);
    const row = await query.executeTakeFirst();
    return row ? (row.payload as OutboundEvent) : undefined;
  }

  /** The events since `since` that this endpoint was meant to get and never acknowledged, oldest first. */
  async failedSince(endpointId: string, since: Date, limit: number): Promise<OutboundEvent[]> {
    const rows = await this.store.db
      .selectFrom('events as e')
      .innerJoin('event_deliveries as d', 'd.event_id', 'e.id')
      .select(['e.payload', 'e.created_at', 'e.id'])
      .where('d.endpoint_id', '=', endpointId)
      .where('e.created_at', '>=', since)
      .groupBy(['e.id', 'e.payload', 'e.created_at'])
      .having(sql<boolean>`bool_or(d.status = 'delivered')`, '=', false)
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.payload as OutboundEvent);
  }

  /** Deletes events older than the retention period, their attempts with them; returns how many. */
  async purge(days = EVENT_RETENTION_DAYS, now = Date.now()): Promise<number> {
    const { numDeletedRows } = await this.store.db
      .deleteFrom('events')
      .where('created_at', '<', new Date(now - days * 24 * 3600 * 1000))
      .executeTakeFirst();
    return Number(numDeletedRows);
  }
}
