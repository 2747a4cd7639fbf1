import { getExternalWorkflowHandle, setHandler } from '@temporalio/workflow';
import { SeenEvents } from '../verification/seen-events.js';
import { discoveryUpdatedSignal, discoveryWaitersQuery } from './discovery.js';
import {
  cancelSignal,
  discoveryHandoutSignal,
  registerDiscoveryWaiterUpdate,
  type DiscoveryHandout,
} from '../verification/verification.js';

/** Longer waiter ids are refused: a workflow id, never a payload. */
const MAX_WAITER_ID_LENGTH = 1000;

/**
 * What `discovery-<id>` keeps in its own state (decision 0054): the exact set of verifications registered with it,
 * the webhook updates it has not fetched yet, and, once the wait ended, the handout every waiter gets. The set lives
 * here and not in visibility, which is eventually consistent and costs the server a query per delivery.
 */
export class DiscoveryOwner {
  /** Webhook updates counted so far (one per event: a repeated delivery fetches nothing more). */
  updates = 0;
  /** Fetches this run has started: a registration before the first must look for itself. */
  looks = 0;
  cancelled = false;
  /** In registration order; a set, so a discovery shared by thousands stays cheap to register with. */
  private readonly waiters = new Set<string>();
  private readonly handed = new Set<string>();
  private ending: DiscoveryHandout | undefined;

  constructor(
    private readonly discoveryId: string,
    starters: readonly unknown[] = [],
  ) {
    for (const id of starters) if (isWaiterId(id)) this.waiters.add(id);
    const seen = new SeenEvents();
    setHandler(discoveryUpdatedSignal, ({ discoveryId, eventId }) => {
      if (discoveryId === this.discoveryId && !seen.repeated(eventId)) this.updates += 1;
    });
    setHandler(cancelSignal, () => {
      this.cancelled = true;
    });
    setHandler(discoveryWaitersQuery, () => [...this.waiters]);
    setHandler(
      registerDiscoveryWaiterUpdate,
      ({ waiterId }) => {
        // A repeated registration (an activity's retry) changes nothing: the set stays exact.
        this.waiters.add(waiterId);
        if (!this.ending) return { looked: this.looks > 0 };
        // Registered after the end: the answer carries the handout, so no signal is needed.
        this.handed.add(waiterId);
        return { handout: this.ending };
      },
      {
        validator: ({ waiterId }) => {
          if (!isWaiterId(waiterId)) throw new Error('waiterId must be a workflow id');
        },
      },
    );
  }

  get waiting(): number {
    return this.waiters.size;
  }

  /**
   * The wait ended: every waiter gets `handout`, one signal each. Registrations that arrive while the signals go out
   * are served in the next round (a registration that reaches the closing task makes Temporal run it again), so the
   * workflow closes only when every waiter has it.
   */
  async handOut(handout: DiscoveryHandout): Promise<void> {
    this.ending = handout;
    for (;;) {
      const due = [...this.waiters].filter((id) => !this.handed.has(id));
      if (due.length === 0) return;
      for (const id of due) this.handed.add(id);
      await Promise.all(
        due.map((id) =>
          // A waiter closed meanwhile (cancelled) has no use for it.
          getExternalWorkflowHandle(id)
            .signal(discoveryHandoutSignal, handout)
            .catch(() => undefined),
        ),
      );
    }
  }
}

function isWaiterId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_WAITER_ID_LENGTH;
}
