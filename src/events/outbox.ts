import { sql } from 'kysely';
import type { Store } from '../store/database.js';
import type { EndpointStatus } from '../store/tables.js';
import { orderKey, type OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { signingEndpoint, type SigningEndpoint } from './endpoints.js';
import type { SecretBox } from './secret-box.js';

/** One endpoint an emitted event is queued for, with what its first attempt needs. */
export interface OutboxTarget {
  endpointId: string;
  /**
   * `pending`: this process makes the first attempt. `held`: an earlier event of the same verification (batch, patient)
   * for this endpoint is still another process's or the sweeper's, so this one waits for the sweeper, behind it.
   */
  state: 'pending' | 'held';
  /** An earlier event of the same verification is at the dispatcher: this one must follow it there, not overtake it. */
  afterHanded: boolean;
  endpoint: SigningEndpoint;
}

/** A row the sweeper took over: its owner died (or is far too slow), or it was held behind one. */
export interface SweptRow {
  endpointId: string;
  event: OutboundEvent;
}

interface TargetRow {
  endpoint_id: string;
  kept: OutboundEvent | null;
  state: 'pending' | 'held';
  after_handed: boolean;
  url: string;
  status: EndpointStatus;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * The outbox of outbound events (decision 60): a workflow's event is kept and queued for every endpoint of
 * its tenant that takes its type in one statement, before the workflow task that emitted it completes; a row leaves
 * once the event is delivered there, and while it is at the tenant's dispatcher it marks that the verification's later
 * events must follow it there.
 */
export class EventOutbox {
  constructor(
    private readonly store: Store,
    private readonly box: SecretBox,
    /** This process's name on the rows it takes (`pending`, `handing`). */
    readonly owner: string,
  ) {}

  /**
   * Keeps the event and queues it for its endpoints (none: nothing is kept). A repeated call (a retried local activity)
   * queues nothing again while the first call's rows stand (they are the sweeper's once their grace has passed). Returns
   * the event as kept: a workflow task that ran its local activity and was then lost (the worker killed) runs again and
   * emits the same event id at a later time, and every delivery of one id must carry one body.
   */
  async enqueue(event: OutboundEvent): Promise<{ event: OutboundEvent; targets: OutboxTarget[] }> {
    const key = orderKey(event);
    const { rows } = await sql<TargetRow>`
      with targets as (
        select id, url, status, secret, previous_secret, previous_secret_expires_at from event_endpoints
        where tenant = ${event.tenant} and status = 'active' and ${event.type} = any(events)
      ), kept as (
        insert into events (id, tenant, type, payload, created_at)
        select ${event.id}, ${event.tenant}, ${event.type}, ${JSON.stringify(event)}::jsonb, ${new Date(event.timestamp)}
        where exists (select 1 from targets)
        on conflict (id) do nothing
      ), queued as (
        insert into event_outbox (event_id, endpoint_id, order_key, state, owner)
        select ${event.id}, t.id, ${key},
          case when exists (
            select 1 from event_outbox o where o.endpoint_id = t.id and o.order_key = ${key}
            and (o.state in ('held', 'handing') or (o.state = 'pending' and o.owner <> ${this.owner}))
          ) then 'held' else 'pending' end,
          ${this.owner}
        from targets t
        on conflict (event_id, endpoint_id) do nothing
        returning endpoint_id, state
      )
      select q.endpoint_id, q.state, (select payload from events where id = ${event.id}) as kept,
        exists (
          select 1 from event_outbox o where o.endpoint_id = q.endpoint_id and o.order_key = ${key} and o.state = 'handed'
        ) as after_handed,
        t.url, t.status, t.secret, t.previous_secret, t.previous_secret_expires_at
      from queued q join targets t on t.id = q.endpoint_id
    `.execute(this.store.db);
    return {
      // Seen as it was before this statement: the first call's payload, or none when this call kept it.
      event: rows[0]?.kept ?? event,
      targets: rows.map((r) => ({
        endpointId: r.endpoint_id,
        state: r.state,
        afterHanded: r.after_handed,
        endpoint: signingEndpoint(r, this.box),
      })),
    };
  }

  /** Marks events as at the dispatcher (signalled to it), from `pending` (a failed first attempt) or `handing`. */
  async handed(endpointId: string, eventIds: readonly string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.store.db
      .updateTable('event_outbox')
      .set({ state: 'handed', claimed_at: new Date() })
      .where('endpoint_id', '=', endpointId)
      .where('event_id', 'in', [...eventIds])
      .where('state', 'in', ['pending', 'handing'])
      .execute();
  }

  /**
   * Takes over, oldest first, the rows whose owner has held them longer than `graceMs` and the held rows nothing
   * unsettled is ahead of, marking them `handing` by this process (several sweepers never take one row twice).
   */
  async sweep(graceMs: number, limit: number): Promise<SweptRow[]> {
    const stale = sql`now() - make_interval(secs => ${graceMs / 1000})`;
    const { rows } = await sql<{ endpoint_id: string; payload: OutboundEvent }>`
      with taken as (
        update event_outbox o set state = 'handing', owner = ${this.owner}, claimed_at = now()
        where o.seq in (
          select c.seq from event_outbox c
          where (c.state = 'held' or (c.state in ('pending', 'handing') and c.claimed_at < ${stale}))
            and not exists (
              select 1 from event_outbox p
              where p.endpoint_id = c.endpoint_id and p.order_key = c.order_key and p.seq < c.seq
                and p.state in ('pending', 'handing') and p.claimed_at >= ${stale}
            )
          order by c.seq
          limit ${limit}
          for update skip locked
        )
        and (o.state = 'held' or o.claimed_at < ${stale})
        returning o.seq, o.event_id, o.endpoint_id
      )
      select t.endpoint_id, e.payload from taken t join events e on e.id = t.event_id order by t.seq
    `.execute(this.store.db);
    return rows.map((r) => ({ endpointId: r.endpoint_id, event: r.payload }));
  }

  /** Rows still `handed` long after any retry window (their dispatcher ended without a word): deleted. */
  async purgeHanded(olderThanMs: number, now = Date.now()): Promise<number> {
    const { numDeletedRows } = await this.store.db
      .deleteFrom('event_outbox')
      .where('state', '=', 'handed')
      .where('claimed_at', '<', new Date(now - olderThanMs))
      .executeTakeFirst();
    return Number(numDeletedRows);
  }
}
