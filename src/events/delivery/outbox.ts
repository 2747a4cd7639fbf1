import { sql } from 'kysely';
import type { Store } from '../../store/database.js';
import type { EndpointStatus } from '../../store/tables.js';
import { orderKey, type OutboundEvent } from '../../../workflows/shared/event-catalogue.js';
import { signingEndpoint, type SigningEndpoint } from '../endpoints.js';
import { attemptRow, type AttemptRecord } from '../event-log.js';
import type { SecretBox } from '../secret-box.js';

/** A delivery a worker has claimed: the event as kept, where it goes, and its retries so far. */
export interface ClaimedDelivery {
  seq: string;
  endpointId: string;
  event: OutboundEvent;
  endpoint: SigningEndpoint;
  attempts: number;
  firstFailedAt: Date | null;
}

interface ClaimedRow {
  seq: string;
  endpoint_id: string;
  attempts: number;
  first_failed_at: Date | null;
  payload: OutboundEvent;
  url: string;
  status: EndpointStatus;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/** An earlier version's worker has left its `pending` or `handing` row for this long: it died (its attempts take 10 s). */
const LEFT_BY_EARLIER_VERSION = sql`now() - interval '1 minute'`;

/**
 * The outbox (docs/developing/event-delivery.md): one row per event and endpoint, from the moment a workflow emits the
 * event until it is delivered there or set aside as undelivered. It is the one queue of deliveries: workers claim its
 * due rows, one at a time per verification (batch, patient) and endpoint in the order they were queued, and a failed
 * one stays in it with when it is tried again.
 */
export class EventOutbox {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
  ) {}

  /**
   * Keeps the event and queues it for every active endpoint of its tenant that takes its type, in one statement;
   * answers how many. Repeated (a retried local activity, a workflow task that ran twice) it queues nothing again, and
   * the event keeps the body it was first kept with: every delivery of one id carries one body.
   */
  async enqueue(event: OutboundEvent): Promise<number> {
    const { rows } = await sql<{ queued: number }>`
      with targets as (
        select id from event_endpoints
        where tenant = ${event.tenant} and status = 'active' and ${event.type} = any(events)
      ), kept as (
        insert into events (id, tenant, type, payload, created_at)
        select ${event.id}, ${event.tenant}, ${event.type}, ${JSON.stringify(event)}::jsonb, ${new Date(event.timestamp)}
        where exists (select 1 from targets)
        on conflict (id) do nothing
      ), queued as (
        insert into event_outbox (event_id, endpoint_id, order_key, state, owner)
        select ${event.id}, t.id, ${orderKey(event)}, 'queued', '' from targets t
        on conflict (event_id, endpoint_id) do nothing
        returning 1
      )
      select count(*)::int as queued from queued
    `.execute(this.store.db);
    return rows[0]?.queued ?? 0;
  }

  /**
   * Queues kept events (EventLog.keep) for one endpoint again, due now (a person's redelivery), or with the retry window already
   * running since `firstFailedAt` (deliveries an earlier version's dispatcher was retrying). One already queued is made
   * due now.
   */
  async requeue(endpointId: string, events: readonly OutboundEvent[], firstFailedAt?: Date): Promise<void> {
    if (events.length === 0) return;
    await this.store.db
      .insertInto('event_outbox')
      .values(
        events.map((e) => ({
          event_id: e.id,
          endpoint_id: endpointId,
          order_key: orderKey(e),
          state: 'queued' as const,
          owner: '',
          first_failed_at: firstFailedAt ?? null,
        })),
      )
      .onConflict((c) =>
        c.columns(['event_id', 'endpoint_id']).doUpdateSet({ state: 'queued', next_attempt_at: new Date() }),
      )
      .execute();
  }

  /**
   * Claims, for `leaseMs`, up to `limit` due deliveries: each the first still queued of its verification (batch,
   * patient) for its endpoint, no endpoint beyond `concurrency` claimed at once, oldest due first. Several workers
   * never claim one row twice (`skip locked`); one that dies leaves its claims to others when the lease ends.
   */
  async claim(
    owner: string,
    opts: { limit: number; concurrency: number; leaseMs: number },
  ): Promise<ClaimedDelivery[]> {
    const { rows } = await sql<ClaimedRow>`
      with endpoints as (
        select p.id, ${opts.concurrency} - (
          select count(*) from event_outbox b where b.endpoint_id = p.id and b.claimed_until > now()
        ) as free
        from event_endpoints p
        where p.status = 'active'
          and exists (select 1 from event_outbox d where d.endpoint_id = p.id and d.next_attempt_at <= now())
      ), candidates as (
        -- Each endpoint's own oldest due rows, up to its free slots: a dead endpoint's backlog never crowds out another's.
        select c.seq, c.next_attempt_at from endpoints s
        cross join lateral (
          select c.seq, c.next_attempt_at from event_outbox c
          where c.endpoint_id = s.id and c.next_attempt_at <= now()
            and ((c.state in ('queued', 'held') and (c.claimed_until is null or c.claimed_until < now()))
              or (c.state in ('pending', 'handing') and c.claimed_at < ${LEFT_BY_EARLIER_VERSION}))
            and not exists (
              select 1 from event_outbox a
              where a.endpoint_id = c.endpoint_id and a.order_key = c.order_key and a.seq < c.seq
            )
          order by c.next_attempt_at, c.seq
          limit greatest(s.free, 0)
          for update of c skip locked
        ) c
      ), chosen as (
        select seq from candidates order by next_attempt_at, seq limit ${opts.limit}
      ), taken as (
        update event_outbox o
        set state = 'queued', owner = ${owner}, claimed_at = now(),
          claimed_until = now() + make_interval(secs => ${opts.leaseMs / 1000})
        where o.seq in (select seq from chosen)
        returning o.seq, o.event_id, o.endpoint_id, o.attempts, o.first_failed_at
      )
      select t.seq, t.endpoint_id, t.attempts, t.first_failed_at, e.payload,
        p.url, p.status, p.secret, p.previous_secret, p.previous_secret_expires_at
      from taken t join events e on e.id = t.event_id join event_endpoints p on p.id = t.endpoint_id
      order by t.seq
    `.execute(this.store.db);
    return rows.map((r) => ({
      seq: String(r.seq),
      endpointId: r.endpoint_id,
      event: r.payload,
      endpoint: signingEndpoint(r, this.box),
      attempts: r.attempts,
      firstFailedAt: r.first_failed_at ? new Date(r.first_failed_at) : null,
    }));
  }

  /**
   * A delivered one: out of the outbox and its attempt recorded, in one statement. Its endpoint answers again, so what
   * waits there for a retry is made due now: an endpoint back from an outage gets its backlog at once, not at each
   * delivery's next retry (up to hours apart).
   */
  async delivered(d: ClaimedDelivery, attempt: AttemptRecord): Promise<void> {
    await this.store.db
      .with('settled', (q) => q.deleteFrom('event_outbox').where('seq', '=', d.seq))
      .with('released', (q) =>
        q
          .updateTable('event_outbox')
          .set({ next_attempt_at: new Date() })
          .where('endpoint_id', '=', d.endpointId)
          .where('attempts', '>', 0)
          .where('next_attempt_at', '>', new Date()),
      )
      .insertInto('event_deliveries')
      .values(attemptRow(attempt))
      .execute();
  }

  /** A failed delivery, released to be tried again at `at`; its window runs from `firstFailedAt` (kept once set). */
  async retryAt(d: ClaimedDelivery, at: Date, firstFailedAt: Date): Promise<void> {
    await this.store.db
      .updateTable('event_outbox')
      .set((eb) => ({
        attempts: eb('attempts', '+', 1),
        next_attempt_at: at,
        first_failed_at: eb.fn.coalesce('first_failed_at', sql<Date>`${firstFailedAt}`),
        claimed_until: null,
      }))
      .where('seq', '=', d.seq)
      .execute();
  }

  /**
   * Everything queued for an endpoint that stopped (disabled, or answered 410): out of the outbox, each event kept with
   * an `undelivered` line in the deliveries log, for redelivery once it is enabled again. One statement.
   */
  async setAside(endpointId: string): Promise<number> {
    const { rows } = await sql<{ moved: number }>`
      with moved as (
        delete from event_outbox where endpoint_id = ${endpointId} returning event_id
      ), lines as (
        insert into event_deliveries (event_id, endpoint_id, attempt, status, attempted_at)
        select event_id, ${endpointId}, 0, 'undelivered', now() from moved
        returning 1
      )
      select count(*)::int as moved from lines
    `.execute(this.store.db);
    return rows[0]?.moved ?? 0;
  }

  /** Rows an earlier version's dispatcher held (`handed`) still here after a week: it ended long ago. Deleted. */
  async purgeLeftovers(olderThanMs: number, now = Date.now()): Promise<number> {
    const { numDeletedRows } = await this.store.db
      .deleteFrom('event_outbox')
      .where('state', '=', 'handed')
      .where('claimed_at', '<', new Date(now - olderThanMs))
      .executeTakeFirst();
    return Number(numDeletedRows);
  }
}
