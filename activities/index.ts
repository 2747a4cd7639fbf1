import { Context } from '@temporalio/activity';
import type { EligibilityClient } from '../src/client/index.js';
import { createEmitActivities } from './events/emit.js';
import { registerDiscoveryWaiter } from './discovery-waiters.js';
import { heldBackFailure, toActivityFailure, toDiscoveryFailure, toV1CreationFailure } from './failures.js';
import type { CallOutcomes } from './outcomes.js';
import { HELD_BACK_RETRY_MS, type RateLimitBrake } from './rate-limit-brake.js';
import { withinRetryWindow } from './retry-window.js';
import type { CallPolicy } from '../workflows/shared/activity-options.js';
import type { EmitActivities } from '../workflows/shared/event-emitter.js';
import type { VerificationActivities } from '../workflows/verification/index.js';

/**
 * Runs one client call as an activity: the activity's cancellation aborts the HTTP call, and the client's typed errors
 * become the failures of docs/developing/service-calls.md. Retries are Temporal's alone
 * (`workflows/shared/activity-options.ts`).
 */
export async function serviceCall<T>(
  deps: ActivityDeps,
  call: (opts: { signal: AbortSignal }) => Promise<T>,
  toFailure: (err: unknown) => unknown = toActivityFailure,
  policy?: CallPolicy,
): Promise<T> {
  const { outcomes, brake } = deps;
  const signal = Context.current().cancellationSignal;
  if (brake && !(await brake.pass(signal))) throw heldBackFailure(HELD_BACK_RETRY_MS);
  try {
    const result = await call({ signal });
    outcomes?.record();
    brake?.record();
    return result;
  } catch (err) {
    // The traffic governor's input: how the service answered, counted per worker and reported per interval.
    outcomes?.record(err);
    brake?.record(err);
    throw withinRetryWindow(toFailure(err), policy);
  }
}

export interface ActivityDeps {
  /** This worker's call outcomes, reported to the task queue's traffic governor; unset = not governed. */
  outcomes?: CallOutcomes;
  /** Paces this worker's calls after a 429 until the governor's cut lands; unset = not governed. */
  brake?: RateLimitBrake;
  /**
   * How events are kept: the workflows' local activity, and a creation's own `created` event (decision 62). Unset, as
   * in a worker without the database (where no endpoint can exist): emitting does nothing.
   */
  emit?: EmitActivities;
}

/**
 * One activity per service call, each a thin wrapper over the client (created once per worker, so every activity
 * shares its token). It implements the verification workflows' port: a fake with another signature does not compile.
 */
export function createActivities(
  client: EligibilityClient,
  deps: ActivityDeps = {},
): VerificationActivities & EmitActivities {
  // The signatures are the port's (`VerificationActivities`), so they are written once, on the workflow side.
  const getDiscovery = (discoveryId: string, policy?: CallPolicy) =>
    serviceCall(deps, (o) => client.getDiscovery(discoveryId, o), toDiscoveryFailure, policy);
  const emit = deps.emit ?? createEmitActivities();
  return {
    ...emit,
    lookupPayer: (payerId, policy) => serviceCall(deps, (o) => client.getPayer(payerId, o), toActivityFailure, policy),
    fetchDiscovery: (discoveryId) => getDiscovery(discoveryId),
    registerDiscoveryWaiter: (discoveryId, waiterId, timing, policy) =>
      registerDiscoveryWaiter((id) => getDiscovery(id, policy), discoveryId, waiterId, timing),
    createVerificationV2: (request, idempotencyKey, policy) =>
      serviceCall(
        deps,
        (o) => client.createVerificationV2(request, { ...o, idempotencyKey }),
        toActivityFailure,
        policy,
      ),
    createVerificationV1: (request) =>
      serviceCall(deps, (o) => client.createVerificationV1(request, o), toV1CreationFailure),
    updateRun: (flowRunId, input) => serviceCall(deps, (o) => client.updateRun(flowRunId, input, o)),
    fetchLegacyPatient: (patientId) => serviceCall(deps, (o) => client.getLegacyPatient(patientId, o)),
    createProviderGroup: (request) => serviceCall(deps, (o) => client.createProviderGroup(request, o)),
    registerWebhook: (url) => serviceCall(deps, (o) => client.registerWebhook(url, o)),
    subscribeWebhookEvent: (endpointId, event) =>
      serviceCall(deps, (o) => client.subscribeWebhookEvent(endpointId, event, o)),
  };
}

export type Activities = VerificationActivities;
