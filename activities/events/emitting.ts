import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Client } from '@temporalio/client';
import { createEmitActivities } from './emit.js';
import type { Logger } from '../../src/logging.js';
import { recordEndpointDisabled } from '../../src/metrics/project-metrics.js';
import type { Store } from '../../src/store/database.js';
import type { EmitActivities } from '../../workflows/shared/event-emitter.js';
import { FirstDeliveries, type FirstDeliveriesOptions } from '../../src/events/first-deliveries.js';
import { DispatcherHandoff } from '../../src/events/handoff.js';
import { EventOutbox } from '../../src/events/outbox.js';
import { SWEEPER_TIMING, sweepOutboxEvery, type SweeperTiming } from '../../src/events/outbox-sweeper.js';
import type { SecretBox } from '../../src/events/secret-box.js';
import type { EventServices } from '../../src/events/services.js';

export interface EmittingDeps extends Pick<FirstDeliveriesOptions, 'requestTimeoutMs' | 'failingForMs'> {
  store: Store;
  box: SecretBox;
  client: Client;
  /** The endpoints, the deliveries log and the dispatchers, as the intake API has them. */
  services: EventServices;
  logger: Logger;
  /** First attempts under way at once per endpoint in this process (EVENTS_ENDPOINT_CONCURRENCY). */
  concurrency: number;
  sweeper?: SweeperTiming;
}

/** A process's side of emitting events: the workers' local activity, its first attempts, handovers and sweeper. */
export interface Emitting {
  emitActivities: EmitActivities;
  outbox: EventOutbox;
  /** Starts looking for rows a dead process left (every events worker does); returns what stops it. */
  startSweeping(): () => void;
  /** Lets first attempts and handovers under way finish, for `timeoutMs` at most each. */
  close(timeoutMs: number): Promise<void>;
}

/**
 * Emitting events through the outbox (decision 60), put together: the outbox named for this process, first
 * attempts in it, handovers to the tenant's dispatchers, and an endpoint that answers 410 disabled at once.
 */
export function openEmitting(deps: EmittingDeps): Emitting {
  const { logger, services } = deps;
  const outbox = new EventOutbox(deps.store, deps.box, `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`);
  const handoff = new DispatcherHandoff(deps.client, outbox, services.dispatchers, logger);
  const first = new FirstDeliveries({
    log: services.log,
    handoff,
    logger,
    concurrency: deps.concurrency,
    ...(deps.requestTimeoutMs !== undefined ? { requestTimeoutMs: deps.requestTimeoutMs } : {}),
    ...(deps.failingForMs !== undefined ? { failingForMs: deps.failingForMs } : {}),
    // As the dispatcher does with a 410 (activities/events): disabled, what it will not get kept for redelivery, and
    // the tenant's dispatchers told to stop delivering to it.
    async gone(endpointId, tenant, events, seenAt) {
      const disabled = await services.endpoints.disable(endpointId, 'gone', seenAt);
      if (!disabled && (await services.endpoints.isActive(endpointId))) return 'changed';
      await services.log.keepUndelivered(endpointId, events);
      if (!disabled) return 'disabled';
      recordEndpointDisabled('gone');
      logger.warn({ endpointId, undelivered: events.length }, 'event endpoint disabled: it answered 410 Gone');
      await services.dispatchers.refresh(tenant);
      return 'disabled';
    },
  });
  return {
    emitActivities: createEmitActivities({ outbox, first }),
    outbox,
    startSweeping: () => sweepOutboxEvery(outbox, handoff, logger, deps.sweeper ?? SWEEPER_TIMING),
    async close(timeoutMs) {
      await first.drain(timeoutMs);
      await handoff.close(timeoutMs);
    },
  };
}
