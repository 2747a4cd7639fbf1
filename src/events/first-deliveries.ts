import type { Logger } from '../logging.js';
import { orderKey, type OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { attemptDelivery, attemptRecord, REQUEST_TIMEOUT_MS, type Attempt } from './attempt.js';
import type { SigningEndpoint } from './endpoints.js';
import type { EventLog } from './event-log.js';
import type { DispatcherHandoff } from './handoff.js';
import type { OutboxTarget } from './outbox.js';

export interface FirstDeliveriesOptions {
  log: Pick<EventLog, 'recordAttempts'>;
  handoff: Pick<DispatcherHandoff, 'hand'>;
  logger: Logger;
  /** First attempts under way at once per endpoint in this process (EVENTS_ENDPOINT_CONCURRENCY). */
  concurrency: number;
  requestTimeoutMs?: number;
  /** After an endpoint fails an attempt, its next events go straight to the dispatcher for this long. */
  failingForMs?: number;
  /** Events waiting here for one endpoint beyond which the next go straight to the dispatcher. */
  maxWaiting?: number;
  /**
   * The endpoint answered 410 Gone at `seenAt`: disable it and keep `events` for redelivery. `changed`: it was changed
   * (re-enabled) after `seenAt`, so it stays active and `events` were not kept.
   */
  gone(endpointId: string, tenant: string, events: OutboundEvent[], seenAt: Date): Promise<'disabled' | 'changed'>;
}

/** Longer than a handover's signal takes, retries included, in all but an outage of Temporal. */
const HANDED_OVER_MEMORY_MS = 60_000;

interface Job {
  endpointId: string;
  event: OutboundEvent;
  endpoint: SigningEndpoint;
  afterHanded: boolean;
}

/** One verification's (batch's, patient's) events for one endpoint, attempted one at a time, in order. */
interface Chain {
  jobs: Job[];
  busy: boolean;
  /** Waiting for a free slot of its endpoint's. */
  parked: boolean;
  /** An event of it went to the dispatcher: every later one follows it there. */
  handedOver: boolean;
}

interface Lane {
  /** When it answered 410 (it is disabled); what comes meanwhile is kept as undelivered. */
  goneAt: Date | undefined;
  running: number;
  waiting: number;
  parked: string[];
  failingUntil: number;
}

/**
 * The first attempt at each emitted event, made at once by the worker whose workflow emitted it (decision 60), so a
 * delivery waits for no workflow task and costs no Temporal action. Per endpoint at most `concurrency` at once; per
 * verification (batch, patient) and endpoint one at a time, in order. What it does not deliver goes to the tenant's
 * dispatcher, which retries for the window: an attempt that failed, everything after it of the same verification, and
 * every event of an endpoint that failed within the last `failingForMs` or has too many waiting.
 */
export class FirstDeliveries {
  private readonly chains = new Map<string, Chain>();
  private readonly lanes = new Map<string, Lane>();
  /**
   * Chains handed over lately, until their rows surely show it (`handed` once the signal has gone): a later event of
   * theirs that comes meanwhile follows them instead of overtaking them.
   */
  private readonly handedOver = new Map<string, number>();
  private readonly failingForMs: number;
  private readonly maxWaiting: number;
  private readonly timeoutMs: number;
  private idle: (() => void)[] = [];

  constructor(private readonly opts: FirstDeliveriesOptions) {
    this.failingForMs = opts.failingForMs ?? 30_000;
    this.maxWaiting = opts.maxWaiting ?? 1_000;
    this.timeoutMs = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  /** Takes an emitted event's pending targets (held ones are the sweeper's); returns at once. */
  take(event: OutboundEvent, targets: readonly OutboxTarget[]): void {
    const key = orderKey(event);
    for (const t of targets) {
      if (t.state !== 'pending') continue;
      const id = `${t.endpointId} ${key}`;
      let chain = this.chains.get(id);
      if (!chain) {
        const until = this.handedOver.get(id);
        if (until !== undefined && until <= Date.now()) this.handedOver.delete(id);
        chain = { jobs: [], busy: false, parked: false, handedOver: until !== undefined && until > Date.now() };
        this.chains.set(id, chain);
      }
      chain.jobs.push({ endpointId: t.endpointId, event, endpoint: t.endpoint, afterHanded: t.afterHanded });
      this.lane(t.endpointId).waiting++;
      if (!chain.busy && !chain.parked) this.advance(id, chain);
    }
  }

  /** Resolves once nothing is waiting or under way here, or after `timeoutMs`. */
  async drain(timeoutMs: number): Promise<void> {
    if (this.chains.size === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => this.idle.push(resolve)),
      new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
    ]);
  }

  private lane(endpointId: string): Lane {
    let lane = this.lanes.get(endpointId);
    if (!lane) {
      lane = { goneAt: undefined, running: 0, waiting: 0, parked: [], failingUntil: 0 };
      this.lanes.set(endpointId, lane);
    }
    return lane;
  }

  private advance(id: string, chain: Chain): void {
    for (;;) {
      const job = chain.jobs[0];
      if (!job) {
        this.chains.delete(id);
        if (chain.handedOver) this.rememberHandedOver(id);
        if (this.chains.size === 0) for (const resolve of this.idle.splice(0)) resolve();
        return;
      }
      const lane = this.lane(job.endpointId);
      if (lane.goneAt) {
        chain.jobs.shift();
        lane.waiting--;
        this.keepGone(job, lane, lane.goneAt);
        continue;
      }
      if (chain.handedOver || job.afterHanded || lane.failingUntil > Date.now() || lane.waiting > this.maxWaiting) {
        chain.jobs.shift();
        lane.waiting--;
        chain.handedOver = true;
        this.opts.handoff.hand(job.endpointId, job.event);
        continue;
      }
      if (lane.running >= this.opts.concurrency) {
        chain.parked = true;
        lane.parked.push(id);
        return;
      }
      chain.jobs.shift();
      lane.waiting--;
      lane.running++;
      chain.busy = true;
      const started = new Date();
      void this.attempt(job).then((outcome) => {
        lane.running--;
        chain.busy = false;
        if (outcome === 'gone') {
          lane.goneAt = started;
          this.keepGone(job, lane, started);
        } else if (outcome !== 'delivered') {
          chain.handedOver = true;
          lane.failingUntil = Date.now() + this.failingForMs;
          this.opts.handoff.hand(job.endpointId, job.event);
        }
        this.advance(id, chain);
        this.unpark(lane);
      });
      return;
    }
  }

  private keepGone(job: Job, lane: Lane, seenAt: Date): void {
    this.opts.gone(job.endpointId, job.event.tenant, [job.event], seenAt).then(
      (result) => {
        if (result === 'disabled') return;
        // Re-enabled since it answered 410: it is delivered to again (by its dispatcher, behind what went there).
        if (lane.goneAt === seenAt) lane.goneAt = undefined;
        this.opts.handoff.hand(job.endpointId, job.event);
      },
      // Not disabled here (the database unreachable): its dispatcher will, when its own attempt is answered 410.
      () => this.opts.handoff.hand(job.endpointId, job.event),
    );
  }

  private rememberHandedOver(id: string): void {
    const now = Date.now();
    if (this.handedOver.size >= 10_000) {
      for (const [key, until] of this.handedOver) if (until <= now) this.handedOver.delete(key);
    }
    this.handedOver.set(id, now + HANDED_OVER_MEMORY_MS);
  }

  private unpark(lane: Lane): void {
    while (lane.running < this.opts.concurrency && lane.parked.length > 0) {
      const id = lane.parked.shift()!;
      const chain = this.chains.get(id);
      if (!chain) continue;
      chain.parked = false;
      this.advance(id, chain);
    }
  }

  /** One attempt, recorded; a recording that fails leaves the row for the sweeper (at worst a second delivery). */
  private async attempt(job: Job): Promise<Attempt['outcome']> {
    const a = await attemptDelivery(job.endpoint, job.event, this.timeoutMs);
    try {
      await this.opts.log.recordAttempts([attemptRecord(job.endpointId, job.event, a, new Date())]);
    } catch (err) {
      this.opts.logger.warn(
        { error: (err as Error).name, endpointId: job.endpointId, eventId: job.event.id },
        'a first delivery attempt could not be recorded',
      );
    }
    return a.outcome;
  }
}
