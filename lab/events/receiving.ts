import { TestReceiver, verify, type Behaviour, type Received } from '../../test/events/receivers.js';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';
import { callIntake, type IntakeEndpoint } from '../faults/intake-http.js';

/**
 * A receiver of the bench subscribed through `POST /event-endpoints` to every event of the catalogue: each delivery is
 * verified with `standardwebhooks`' `Webhook.verify` the moment it arrives (as a receiver must: the signature is
 * refused five minutes after its timestamp), then answered as `behaviour` says.
 */
export interface Subscribed {
  receiver: TestReceiver;
  endpointId: string;
  secret: string;
  /** Deliveries whose signature verified, and those it did not. */
  verified: number;
  refused: number;
}

export async function subscribe(
  stack: { intake: IntakeEndpoint },
  tenant: string,
  behaviour: Behaviour = () => 200,
): Promise<Subscribed> {
  const receiver = new TestReceiver();
  const url = await receiver.start();
  const sink: Subscribed = { receiver, endpointId: '', secret: '', verified: 0, refused: 0 };
  receiver.behaviour = (received, n) => {
    try {
      verify(received, sink.secret);
      sink.verified += 1;
    } catch {
      sink.refused += 1;
    }
    return behaviour(received, n);
  };
  const made = await callIntake(stack.intake, 'POST', '/event-endpoints', { url, events: [...EVENT_TYPES], tenant });
  if (made.status !== 201) throw new Error(`POST /event-endpoints: ${made.status} ${JSON.stringify(made.body)}`);
  const { endpoint, secret } = made.body as { endpoint: { id: string }; secret: string };
  sink.endpointId = endpoint.id;
  sink.secret = secret;
  return sink;
}

/** What an event is about: its verification's workflow id, or `batch:<id>`. */
export const subjectOf = (r: Received): string =>
  typeof r.event.data.workflowId === 'string' ? r.event.data.workflowId : `batch:${String(r.event.data.batchId)}`;
/** One event of the catalogue about one subject: what must arrive once (under one webhook-id). */
export const pairOf = (r: Received): string => `${subjectOf(r)}|${r.event.type}`;

/** The first delivery of each event (webhook-id), in arrival order. */
export function firstArrivals(received: readonly Received[]): Received[] {
  const seen = new Set<string>();
  return received.filter((r) => !seen.has(r.event.id) && seen.add(r.event.id));
}

/** Deliveries beyond the first of the same webhook-id, and events told twice under different webhook-ids. */
export function duplicates(received: readonly Received[]) {
  const firsts = firstArrivals(received);
  const idsPerPair = new Map<string, Set<string>>();
  for (const r of firsts) idsPerPair.set(pairOf(r), (idsPerPair.get(pairOf(r)) ?? new Set()).add(r.event.id));
  const firstBody = new Map(firsts.map((f) => [f.event.id, f.body]));
  return {
    redeliveries: received.length - firsts.length,
    doubleEvents: [...idsPerPair.values()].filter((ids) => ids.size > 1).length,
    /** Redeliveries whose body differs from the first delivery of their webhook-id (must be 0). */
    changedBodies: received.filter((r) => firstBody.get(r.event.id) !== r.body).length,
  };
}

/** Verifications whose events arrived (first deliveries) in another order than their stages: created first. */
export function outOfOrder(received: readonly Received[]): number {
  const firstType = new Map<string, string>();
  for (const r of firstArrivals(received)) if (!firstType.has(subjectOf(r))) firstType.set(subjectOf(r), r.event.type);
  const created = new Set(received.filter((r) => r.event.type === 'verification.created').map((r) => subjectOf(r)));
  return [...firstType].filter(([subject, type]) => created.has(subject) && type !== 'verification.created').length;
}
