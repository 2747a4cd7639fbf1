import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { EventsConfig } from '../config.js';
import type { eventDispatcherWorkflow } from '../../workflows/events/index.js';
import type { OutboundEvent } from '../../workflows/shared/event-catalogue.js';
import { endpointsSignal, redeliverSignal } from '../../workflows/events/events.js';
import {
  DEFAULT_DELIVERY_POLICY,
  dispatcherOf,
  eventDispatcherIds,
  type DeliveryPolicy,
  type EndpointsUpdate,
} from '../../workflows/events/events.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { WorkflowType } from '../../workflows/shared/workflow-types.js';
import type { EventEndpoints } from './endpoints.js';

/**
 * The delivery policy of the configuration (EVENTS_TASK_QUEUE, EVENTS_RETRY_WINDOW_HOURS,
 * EVENTS_ENDPOINT_CONCURRENCY); tests override parts.
 */
export function deliveryPolicy(config: EventsConfig, overrides: Partial<DeliveryPolicy> = {}): DeliveryPolicy {
  return {
    ...DEFAULT_DELIVERY_POLICY,
    taskQueue: config.taskQueue,
    windowSeconds: config.retryWindowHours * 3600,
    concurrency: config.endpointConcurrency,
    ...overrides,
  };
}

/**
 * The client side of tenants' event dispatchers (docs/integrating/events.md): after every change to a tenant's
 * endpoints, each of its dispatchers gets the active list by signal-with-start (one billed action each; the first
 * endpoint starts them, on the events task queue), and a redelivered event goes as a signal to the dispatcher its
 * emitter signalled.
 */
export class EventDispatchers {
  constructor(
    private readonly client: Client,
    /** Its `taskQueue` (EVENTS_TASK_QUEUE) is the dispatcher's as well as its deliveries'. */
    private readonly policy: DeliveryPolicy,
    private readonly endpoints: EventEndpoints,
  ) {}

  /** Tells the tenant's dispatchers its active endpoints now, starting those not running when there is one. */
  async refresh(tenant: string): Promise<void> {
    const update: EndpointsUpdate = {
      asOf: Date.now(),
      endpoints: await this.endpoints.active(tenant),
      policy: this.policy,
    };
    await Promise.all(
      eventDispatcherIds(tenant).map((workflowId, shard) => this.tell(tenant, shard, workflowId, update)),
    );
  }

  private async tell(tenant: string, shard: number, workflowId: string, update: EndpointsUpdate): Promise<void> {
    if (update.endpoints.length === 0) {
      // Nothing to deliver to: a running dispatcher hears it and ends once idle; none is started for it.
      await this.client.workflow
        .getHandle(workflowId)
        .signal(endpointsSignal, update)
        .catch((err: unknown) => {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        });
      return;
    }
    await this.client.workflow.signalWithStart<typeof eventDispatcherWorkflow, [typeof update]>(
      WorkflowType.eventDispatcher,
      {
        workflowId,
        // Apart from the verifications' queue: a backlog of their workflow tasks never holds up a delivery.
        taskQueue: this.policy.taskQueue,
        args: [{ tenant, shard, policy: this.policy }],
        signal: endpointsSignal,
        signalArgs: [update],
        typedSearchAttributes: [{ key: Tenant, value: tenant }],
      },
    );
  }

  /**
   * Queues stored events for one endpoint again, each at the dispatcher that delivers its verification's (batch's,
   * patient's) events, in their order; the dispatchers are started first when they are not running.
   */
  async redeliver(
    tenant: string,
    endpointId: string,
    events: OutboundEvent[],
    opts: { handedOver?: boolean } = {},
  ): Promise<void> {
    if (events.length === 0) return;
    await this.refresh(tenant);
    const byDispatcher = new Map<string, OutboundEvent[]>();
    for (const event of events) {
      const workflowId = dispatcherOf(event);
      byDispatcher.set(workflowId, [...(byDispatcher.get(workflowId) ?? []), event]);
    }
    await Promise.all(
      [...byDispatcher].map(([workflowId, some]) =>
        this.client.workflow
          .getHandle(workflowId)
          .signal(redeliverSignal, { endpointId, events: some, ...(opts.handedOver ? { handedOver: true } : {}) }),
      ),
    );
  }
}
