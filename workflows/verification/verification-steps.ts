import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { VerificationIntake, VerificationRequestV1, VerificationRequestV2 } from '../../src/contract/index.js';
import { verificationCallOptions } from '../shared/activity-options.js';
import { FailureType } from '../shared/failure-types.js';
import { intakeMemberId } from './verification.js';
import { firstCallPriority } from '../shared/priority.js';
import type { VerificationActivities } from './activities.js';
import { fromLastError, invalidRequest, isActivityFailureOfType, toCallerFailure } from './failures.js';
import type { DiscoveryWaitResult } from './discovery-wait.js';
import { activitySummary } from './summaries.js';
import { createV1AtMostOnce } from './v1-creation.js';
import type { Verification } from './verification-record.js';

const { lookupPayer, createVerificationV2 } = proxyActivities<VerificationActivities>(verificationCallOptions);

/** Whom the verification is created for: the payer and member id, from the intake or its discovery. */
export interface Target {
  payerId: string | undefined;
  memberId: string | undefined;
  /** The discovery named the payer: the service found it, so looking it up would learn nothing (decision 61). */
  payerNamedByService: boolean;
}

/** awaiting-discovery: waits for `discovery-<id>` to hand the discovery over; ends unless it found coverage. */
export async function awaitDiscovery(v: Verification, intake: VerificationIntake): Promise<Target> {
  v.enter('awaiting-discovery');
  let waited: DiscoveryWaitResult;
  try {
    waited = await v.discoveries.wait(v.timing, v.policy, v.stopped);
  } catch (err) {
    // The registration's look failed for good (an unknown discovery names `discoveryId`), or its retry window ended.
    return v.fail(toCallerFailure(err));
  }
  if (waited.kind === 'stopped') return v.finish('cancelled');
  if (waited.kind === 'failed') return v.fail(fromLastError(waited.error));
  v.discovery = waited.discovery;
  if (waited.kind === 'timed-out') return v.finish('timed-out');
  const found = waited.discovery;
  if (found.payerName === null || found.memberId === null) return v.finish('no-coverage');
  return {
    payerId: intake.payerId ?? found.payerId,
    memberId: intakeMemberId(intake) ?? found.memberId,
    payerNamedByService: intake.payerId === undefined,
  };
}

/** creating: the payer must exist before a verification names it. */
export async function lookUpPayer(v: Verification, payerId: string): Promise<void> {
  try {
    const summary = activitySummary.lookupPayer(payerId);
    v.calling(summary);
    // Bulk work begun goes before bulk work new (workflows/shared/priority.ts); replay does not compare a priority.
    const opening = firstCallPriority(workflowInfo().priority);
    await lookupPayer.executeWithOptions({ summary, ...(opening ? { priority: opening } : {}) }, [payerId, v.policy]);
  } catch (err) {
    if (isActivityFailureOfType(err, FailureType.NotFound)) return v.fail(invalidRequest('payerId', 'unknown payer'));
    return v.fail(toCallerFailure(err));
  }
}

type Resolved = Target & { payerId: string };

/** creating (v2): exactly once, under an idempotency key every attempt and replay repeats. */
export async function createV2(
  v: Verification,
  intake: Extract<VerificationIntake, { version: 'v2' }>,
  target: Resolved,
  idempotencyKey: string,
): Promise<string> {
  try {
    const summary = activitySummary.createV2(idempotencyKey);
    v.calling(summary);
    const request = toV2Request(intake, target);
    const created = await createVerificationV2.executeWithOptions({ summary }, [request, idempotencyKey, v.policy]);
    return created.verificationId;
  } catch (err) {
    return v.fail(toCallerFailure(err));
  }
}

/** creating (v1): at most once; an ambiguous outcome waits for a person's review. */
export async function createV1(
  v: Verification,
  intake: Extract<VerificationIntake, { version: 'v1' }>,
  target: Resolved,
): Promise<string> {
  const created = await createV1AtMostOnce(toV1Request(intake, target), {
    review: v.review,
    stage: v,
    progress: v.progress,
    reviewDeadlineSeconds: v.timing.reviewDeadlineSeconds,
    stopped: v.stopped,
    report: (error) => (v.lastError = error),
    retryWindowSeconds: v.policy.retryWindowSeconds,
  });
  if (created.kind === 'refused') return v.fail(toCallerFailure(created.failure));
  if (created.kind === 'closed') return v.finish(created.outcome);
  return created.verificationId;
}

function toV2Request(intake: Extract<VerificationIntake, { version: 'v2' }>, target: Resolved): VerificationRequestV2 {
  const { version: _v, discoveryId: _d, payerId: _p, patient, ...rest } = intake;
  const memberId = target.memberId;
  return { ...rest, payerId: target.payerId, patient: { ...patient, ...(memberId ? { memberId } : {}) } };
}

function toV1Request(intake: Extract<VerificationIntake, { version: 'v1' }>, target: Resolved): VerificationRequestV1 {
  const { version: _v, discoveryId: _d, payerId: _p, memberId: _m, ...rest } = intake;
  return { ...rest, payerId: target.payerId, memberId: target.memberId as string };
}
