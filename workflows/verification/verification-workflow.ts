import { ApplicationFailure, condition, proxyActivities, setHandler, uuid4, workflowInfo } from '@temporalio/workflow';
import { HandlerUnfinishedPolicy } from '@temporalio/common';
import type { VerificationActivities } from './activities.js';
import type {
  Discovery,
  VerificationIntake,
  VerificationRequestV1,
  VerificationRequestV2,
} from '../../src/contract/index.js';
import { DEFAULT_RETRY_WINDOW_SECONDS, verificationCallOptions, type CallPolicy } from '../shared/activity-options.js';
import { verificationDetails } from './current-details.js';
import { DiscoveryWait, summarizeDiscovery, type DiscoveryWaitResult } from './discovery-wait.js';
import { FailureType } from '../shared/failure-types.js';
import {
  describeFailure,
  fromLastError,
  invalidRequest,
  isActivityFailureOfType,
  toCallerFailure,
} from './failures.js';
import { intakeMemberId, waitsForDiscovery } from '../shared/intake.js';
import { guardIntake } from './intake-guard.js';
import { awaitSettledUpdate, cancelSignal, statusQuery } from '../shared/messages.js';
import { Progress } from './progress.js';
import { firstCallPriority } from '../shared/priority.js';
import { CreationReview } from './review.js';
import { RunInputs } from './run-inputs.js';
import { SeenEvents } from './seen-events.js';
import { PayerId, VerificationId } from '../shared/search-attributes.js';
import { StageTracker } from './stage.js';
import { activitySummary } from './summaries.js';
import { resolveTiming } from '../shared/timing.js';
import type { LastError, VerificationResult, VerificationStatus, VerificationWorkflowInput } from '../shared/types.js';
import { isSettled, type Outcome } from '../shared/stages.js';
import { humanDuration } from '../shared/ui-text.js';
import { createV1AtMostOnce } from './v1-creation.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { StageEvents } from './stage-events.js';

const { lookupPayer, createVerificationV2 } = proxyActivities<VerificationActivities>(verificationCallOptions);

/**
 * One patient's verification of benefits (docs/developing/workflows.md): guard the input's structure (the starter
 * validated it), wait for the discovery when the payer or member id is unknown, look the payer up unless the discovery
 * named it, create the verification (v2 exactly once, v1 at most once), take input for runs that ask for it.
 */
export async function verificationWorkflow(input: VerificationWorkflowInput): Promise<VerificationResult> {
  const events = new EventEmitter(input.tenant);
  try {
    return await verify(input, new StageEvents(events));
  } finally {
    // Its events reach the tenant's dispatcher before it closes (a round trip to the server, never to an endpoint).
    await events.kept();
  }
}

async function verify(input: VerificationWorkflowInput, events: StageEvents): Promise<VerificationResult> {
  const timing = resolveTiming(input.timing);
  // Typed as validated, but a start that bypassed the edges may hold anything: only the guard's result is trusted.
  const raw = input.request as { id?: unknown; version?: unknown } | undefined;
  // Temporal UI's current details: the status below, what the workflow does now and until when.
  const progress = new Progress((step) => verificationDetails(status(), step));
  const stage = new StageTracker('validating', () => {
    progress.show();
    events.entered(status());
  });
  let cancelled = false;
  let verificationId: string | undefined;
  let discovery: Discovery | undefined;
  let lastError: LastError | undefined;
  // Guarded before the handlers exist, so a query always sees it; failing on it is the `validating` stage below.
  const guarded = guardIntake(input.request);
  const request: VerificationIntake | undefined = guarded.ok ? guarded.intake : undefined;
  const seen = new SeenEvents();
  const discoveries = new DiscoveryWait(request?.discoveryId, progress);
  const review = new CreationReview(progress);
  const runs = new RunInputs(
    () => {
      if (runs.pending.length > 0 && (stage.stage === 'created' || stage.stage === 'awaiting-input')) {
        stage.enter('awaiting-input');
      }
    },
    [],
    seen,
    progress,
  );
  const stopped = () => cancelled;
  const currentError = () => runs.lastError ?? review.rejection ?? lastError;

  setHandler(cancelSignal, () => {
    cancelled = true;
  });
  function status(): VerificationStatus {
    const callerId = typeof raw?.id === 'string' ? raw.id : undefined;
    return {
      stage: stage.stage,
      version: raw?.version === 'v1' ? 'v1' : 'v2',
      ...(callerId ? { callerId } : {}),
      ...(request ? { payerId: discovery?.payerId ?? request.payerId, discoveryId: request.discoveryId } : {}),
      ...(request?.version === 'v2' ? { specialtyCode: request.specialtyCode } : {}),
      ...(verificationId ? { verificationId } : {}),
      ...(discovery ? { discovery: summarizeDiscovery(discovery) } : {}),
      runs: runs.summaries,
      pendingRuns: runs.pending,
      ...(review.status ? { review: review.status } : {}),
      ...(currentError() ? { lastError: currentError() } : {}),
    };
  }
  setHandler(statusQuery, status);
  // Abandoned when the workflow closes first: closing is settling, and the caller then reads the closed status.
  setHandler(
    awaitSettledUpdate,
    async () => {
      await condition(() => isSettled(stage.stage));
      return status();
    },
    { unfinishedPolicy: HandlerUnfinishedPolicy.ABANDON },
  );
  progress.at({ doing: 'checking the request' });

  const finish = (outcome: Outcome): VerificationResult => {
    progress.at(undefined);
    stage.enter(outcome);
    return {
      outcome,
      ...(request?.id ? { callerId: request.id } : {}),
      ...(verificationId ? { verificationId } : {}),
      ...(discovery ? { discovery: { ...summarizeDiscovery(discovery), memberId: discovery.memberId } } : {}),
      runs: runs.summaries,
      ...(currentError() ? { lastError: currentError() } : {}),
    };
  };
  /** Ends the workflow as failed: the failure names the field, and its details carry the result object. */
  const fail = (failure: ApplicationFailure): never => {
    lastError = describeFailure(failure);
    const result = finish('failed');
    throw ApplicationFailure.create({
      type: failure.type ?? FailureType.InvalidRequest,
      message: failure.message,
      nonRetryable: true,
      details: [{ ...(lastError.param ? { param: lastError.param } : {}), result }],
    });
  };

  // validating
  if (!guarded.ok) return fail(invalidRequest(guarded.param, guarded.message));
  const valid = guarded.intake;

  // The retry window (docs/developing/service-calls.md): from a call's first failure, never counting time queued behind
  // the rate limit.
  const policy: CallPolicy = { retryWindowSeconds: input.retryWindowSeconds ?? DEFAULT_RETRY_WINDOW_SECONDS };

  // awaiting-discovery: only when the payer or the member id is unknown and a discovery will tell
  let payerId = valid.payerId;
  let memberId = intakeMemberId(valid);
  // The service named the payer itself (its discovery found it): looking it up would spend a call to learn nothing.
  let payerNamedByService = false;
  if (waitsForDiscovery(valid)) {
    stage.enter('awaiting-discovery');
    let waited: DiscoveryWaitResult;
    try {
      waited = await discoveries.wait(timing, policy, stopped);
    } catch (err) {
      // The registration's look failed for good (an unknown discovery names `discoveryId`), or its retry window ended.
      return fail(toCallerFailure(err));
    }
    if (waited.kind === 'stopped') return finish('cancelled');
    if (waited.kind === 'failed') return fail(fromLastError(waited.error));
    discovery = waited.discovery;
    if (waited.kind === 'timed-out') return finish('timed-out');
    const found = waited.discovery;
    if (found.payerName === null || found.memberId === null) return finish('no-coverage');
    if (payerId === undefined) {
      payerId = found.payerId;
      payerNamedByService = true;
    }
    memberId ??= found.memberId;
  }
  if (payerId === undefined) return fail(invalidRequest('payerId', 'payerId is required'));
  if (valid.version === 'v1' && memberId === undefined) {
    return fail(invalidRequest('memberId', 'memberId or discoveryId is required'));
  }
  if (cancelled) return finish('cancelled');

  // creating
  stage.enter('creating', payerId !== valid.payerId ? [{ key: PayerId, value: payerId }] : []);
  /** A service call's step: Temporal retries it (each attempt shows on the pending activity) until the window ends. */
  const calling = (summary: string) =>
    progress.at({
      doing: `${summary}; failures retried for ${humanDuration(policy.retryWindowSeconds * 1000)} after the first`,
    });
  if (!payerNamedByService) {
    try {
      const summary = activitySummary.lookupPayer(payerId);
      calling(summary);
      // Bulk work begun goes before bulk work new (workflows/priority.ts); replay does not compare a call's priority.
      const opening = firstCallPriority(workflowInfo().priority);
      const options = { summary, ...(opening ? { priority: opening } : {}) };
      await lookupPayer.executeWithOptions(options, [payerId, policy]);
    } catch (err) {
      if (isActivityFailureOfType(err, FailureType.NotFound)) return fail(invalidRequest('payerId', 'unknown payer'));
      return fail(toCallerFailure(err));
    }
    if (cancelled) return finish('cancelled');
  }
  // Seeded from this run's id: every retry, worker restart and replay sends the same key, so no duplicate.
  const idempotencyKey = input.idempotencyKey ?? uuid4();
  if (valid.version === 'v2') {
    try {
      const summary = activitySummary.createV2(idempotencyKey);
      calling(summary);
      const v2Request = toV2Request(valid, payerId, memberId);
      // The creation keeps its `created` event itself (decision 62): no workflow task of its own.
      const ahead = events.ahead({ ...status(), stage: 'created' });
      const created = await createVerificationV2.executeWithOptions(
        { summary },
        ahead ? [v2Request, idempotencyKey, policy, ahead] : [v2Request, idempotencyKey, policy],
      );
      verificationId = created.verificationId;
      if (ahead) events.reached(ahead, created.announced === true, { ...status(), stage: 'created' });
    } catch (err) {
      return fail(toCallerFailure(err));
    }
  } else {
    const v1Request = toV1Request(valid, payerId, memberId as string);
    const created = await createV1AtMostOnce(v1Request, {
      review,
      stage,
      progress,
      reviewDeadlineSeconds: timing.reviewDeadlineSeconds,
      stopped,
      report: (error) => (lastError = error),
      retryWindowSeconds: policy.retryWindowSeconds,
    });
    if (created.kind === 'refused') return fail(toCallerFailure(created.failure));
    if (created.kind === 'closed') return finish(created.outcome);
    verificationId = created.verificationId;
  }
  stage.enter(runs.pending.length > 0 ? 'awaiting-input' : 'created', [{ key: VerificationId, value: verificationId }]);

  // created / awaiting-input
  const waited = await runs.waitForInput(timing.graceSeconds, timing.inputDeadlineSeconds, stopped);
  return finish(waited === 'stopped' ? 'cancelled' : waited);
}

function toV2Request(
  intake: Extract<VerificationIntake, { version: 'v2' }>,
  payerId: string,
  memberId: string | undefined,
): VerificationRequestV2 {
  const { version: _v, discoveryId: _d, payerId: _p, patient, ...rest } = intake;
  return { ...rest, payerId, patient: { ...patient, ...(memberId ? { memberId } : {}) } };
}

function toV1Request(
  intake: Extract<VerificationIntake, { version: 'v1' }>,
  payerId: string,
  memberId: string,
): VerificationRequestV1 {
  const { version: _v, discoveryId: _d, payerId: _p, memberId: _m, ...rest } = intake;
  return { ...rest, payerId, memberId };
}
