import { orderKey, type OutboundEvent } from '../shared/event-catalogue.js';
import type {
  DispatchEndpoint,
  DispatcherInput,
  DispatcherStatus,
  EndpointsUpdate,
  PendingDelivery,
} from './events.js';

interface Entry extends PendingDelivery {
  /** Arrival order, so that carried and started deliveries keep their place. */
  seq: number;
  key: string;
  /** When this run started its delivery (workflow time, epoch ms); not carried. */
  startedAt?: number;
}

/**
 * A dispatcher's bookkeeping, apart from the workflow's wiring: the tenant's active endpoints, per endpoint a queue in
 * arrival order, and what is under way. An endpoint takes at most `concurrency` deliveries at once, and never two of
 * one verification (or batch): the second waits for the first, so each receiver sees a verification's events in order.
 */
export class EndpointQueues {
  private endpoints = new Map<string, Set<string>>();
  private _asOf: number;
  private readonly queued = new Map<string, Entry[]>();
  private readonly underWay = new Map<string, Map<number, Entry>>();
  private seq = 0;

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
    carried?: DispatcherInput['carried'],
  ) {
    this._asOf = carried?.asOf ?? 0;
    for (const e of carried?.endpoints ?? []) this.endpoints.set(e.id, new Set(e.events));
    for (const p of carried?.pending ?? []) this.enqueue(p);
  }

  /**
   * An event from a verification or batch: queued for every endpoint that takes its type. Returns the endpoints whose
   * queue holds its share of `maxQueued` (one that has failed for a long while): the event is kept for them as
   * undelivered instead, so the dispatcher's state, carried across continue-as-new, stays within Temporal's payload
   * limit.
   */
  accept(event: OutboundEvent): string[] {
    const full: string[] = [];
    const share = Math.max(1, Math.floor(this.maxQueued / Math.max(1, this.endpoints.size)));
    for (const [id, types] of this.endpoints) {
      if (!types.has(event.type)) continue;
      if ((this.queued.get(id)?.length ?? 0) >= share) full.push(id);
      else this.enqueue({ endpointId: id, event });
    }
    return full;
  }

  /** Stored events to deliver again to one active endpoint (a redelivery keeps the event's id). */
  redeliver(endpointId: string, events: OutboundEvent[]): void {
    if (!this.endpoints.has(endpointId)) return;
    for (const event of events) this.enqueue({ endpointId, event });
  }

  /**
   * Events a worker's first attempt could not deliver (or that must follow those), handed over for one endpoint: queued
   * within the endpoint's share of `maxQueued`. Returns those it does not take (the queue is full, or the endpoint is no
   * longer active here), for the dispatcher to keep as undelivered.
   */
  takeOver(endpointId: string, events: OutboundEvent[]): OutboundEvent[] {
    if (!this.endpoints.has(endpointId)) return events;
    const share = Math.max(1, Math.floor(this.maxQueued / Math.max(1, this.endpoints.size)));
    const room = Math.max(0, share - (this.queued.get(endpointId)?.length ?? 0));
    for (const event of events.slice(0, room)) this.enqueue({ endpointId, event });
    return events.slice(room);
  }

  /**
   * The tenant's active endpoints now; an older list than the one held is ignored. Returns what endpoints no longer
   * active had queued, for the dispatcher to keep as undelivered.
   */
  update(update: EndpointsUpdate): Map<string, OutboundEvent[]> {
    if (update.asOf < this._asOf) return new Map();
    this._asOf = update.asOf;
    this.endpoints = new Map(update.endpoints.map((e) => [e.id, new Set(e.events)]));
    const dropped = new Map<string, OutboundEvent[]>();
    for (const id of [...this.queued.keys()]) {
      if (!this.endpoints.has(id)) dropped.set(id, this.drop(id));
    }
    return dropped;
  }

  /** Stops delivering to an endpoint (disabled by a failure): returns what it had queued. */
  remove(endpointId: string): OutboundEvent[] {
    this.endpoints.delete(endpointId);
    return this.drop(endpointId);
  }

  /** The deliveries that may start now (at `now`); each is counted as under way until `finished`. */
  startable(now: number): Entry[] {
    const started: Entry[] = [];
    for (const [id, queue] of this.queued) {
      const busy = this.underWay.get(id) ?? new Map<number, Entry>();
      const held = new Set([...busy.values()].map((e) => e.key));
      for (let i = 0; i < queue.length && busy.size < this.concurrency;) {
        const entry = queue[i]!;
        if (held.has(entry.key)) {
          i++;
          continue;
        }
        held.add(entry.key);
        queue.splice(i, 1);
        entry.startedAt = now;
        busy.set(entry.seq, entry);
        started.push(entry);
      }
      this.underWay.set(id, busy);
    }
    return started;
  }

  /** When the endpoint list held was read (epoch ms). */
  get asOf(): number {
    return this._asOf;
  }

  hasStartable(): boolean {
    for (const [id, queue] of this.queued) {
      const busy = this.underWay.get(id);
      if (queue.length === 0 || (busy?.size ?? 0) >= this.concurrency) continue;
      const held = new Set([...(busy?.values() ?? [])].map((e) => e.key));
      if (queue.some((e) => !held.has(e.key))) return true;
    }
    return false;
  }

  finished(entry: Entry): void {
    this.underWay.get(entry.endpointId)?.delete(entry.seq);
  }

  /**
   * When the deliveries under way that started at `since` or later started. One under way for longer is retrying at an
   * endpoint that fails or never answers (an answered attempt takes milliseconds): nothing a short wait would see end.
   */
  startedSince(since: number): number[] {
    const starts: number[] = [];
    for (const m of this.underWay.values()) {
      for (const e of m.values()) if (e.startedAt !== undefined && e.startedAt >= since) starts.push(e.startedAt);
    }
    return starts;
  }

  underWayCount(): number {
    return [...this.underWay.values()].reduce((n, m) => n + m.size, 0);
  }

  isEmpty(): boolean {
    return this.endpoints.size === 0 && this.underWayCount() === 0 && [...this.queued.values()].every((q) => !q.length);
  }

  /** What the next run takes over: the endpoints, then every delivery (under way first: they came first). */
  carry(): NonNullable<DispatcherInput['carried']> {
    const all = [...this.underWay.values()].flatMap((m) => [...m.values()]);
    all.push(...[...this.queued.values()].flat());
    all.sort((a, b) => a.seq - b.seq);
    const endpoints: DispatchEndpoint[] = [...this.endpoints].map(([id, types]) => ({ id, events: [...types] }));
    return {
      asOf: this._asOf,
      endpoints,
      pending: all.map(({ endpointId, event, firstAttemptAt }) => ({
        endpointId,
        event,
        ...(firstAttemptAt !== undefined ? { firstAttemptAt } : {}),
      })),
    };
  }

  status(tenant: string, shard: number): DispatcherStatus {
    const ids = new Set([...this.endpoints.keys(), ...this.queued.keys()]);
    return {
      tenant,
      shard,
      concurrency: this.concurrency,
      endpoints: [...ids].map((id) => ({
        id,
        queued: this.queued.get(id)?.length ?? 0,
        underWay: this.underWay.get(id)?.size ?? 0,
      })),
    };
  }

  private enqueue(p: PendingDelivery): void {
    const queue = this.queued.get(p.endpointId) ?? [];
    // A redelivery of an event still queued for that endpoint adds nothing.
    if (queue.some((e) => e.event.id === p.event.id)) return;
    queue.push({ ...p, seq: ++this.seq, key: orderKey(p.event) });
    this.queued.set(p.endpointId, queue);
  }

  private drop(endpointId: string): OutboundEvent[] {
    const events = (this.queued.get(endpointId) ?? []).map((e) => e.event);
    this.queued.delete(endpointId);
    return events;
  }
}

export type QueuedDelivery = ReturnType<EndpointQueues['startable']>[number];
