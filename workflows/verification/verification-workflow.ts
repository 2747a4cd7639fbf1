import { uuid4 } from '@temporalio/workflow';
import type { VerificationIntake } from '../../src/contract/index.js';
import { EventEmitter } from '../shared/event-emitter.js';
import { intakeMemberId, waitsForDiscovery } from './verification.js';
import { PayerId, VerificationId } from '../shared/search-attributes.js';
import type { VerificationResult, VerificationWorkflowInput } from './verification.js';
import { invalidRequest } from './failures.js';
import { StageEvents } from './stage-events.js';
import { awaitDiscovery, createV1, createV2, lookUpPayer, type Target } from './verification-steps.js';
import { Verification, VerificationEnded } from './verification-record.js';

/**
 * One patient's verification of benefits (docs/developing/workflows.md): guard the input's structure (the starter
 * validated it), wait for the discovery when the payer or member id is unknown, look the payer up unless the discovery
 * named it, create the verification (v2 exactly once, v1 at most once), take input for runs that ask for it.
 */
export async function verificationWorkflow(input: VerificationWorkflowInput): Promise<VerificationResult> {
  const events = new EventEmitter(input.tenant);
  try {
    return await verify(new Verification(input, new StageEvents(events)));
  } catch (err) {
    if (err instanceof VerificationEnded) return err.result;
    throw err;
  } finally {
    // Its events reach the outbox before it closes (a round trip to the database, never to an endpoint).
    await events.kept();
  }
}

/** The business steps, stage by stage; a step that ends the verification throws (`finish`, `fail`). */
async function verify(v: Verification): Promise<VerificationResult> {
  // validating
  if (!v.guarded.ok) return v.fail(invalidRequest(v.guarded.param, v.guarded.message));
  const intake = v.guarded.intake;

  // awaiting-discovery: only when the payer or the member id is unknown and a discovery will tell
  const target = waitsForDiscovery(intake) ? await awaitDiscovery(v, intake) : fromIntake(intake);
  if (target.payerId === undefined) return v.fail(invalidRequest('payerId', 'payerId is required'));
  if (intake.version === 'v1' && target.memberId === undefined) {
    return v.fail(invalidRequest('memberId', 'memberId or discoveryId is required'));
  }
  v.stopIfCancelled();

  // creating
  const payerId = target.payerId;
  v.enter('creating', payerId !== intake.payerId ? [{ key: PayerId, value: payerId }] : []);
  if (!target.payerNamedByService) {
    await lookUpPayer(v, payerId);
    v.stopIfCancelled();
  }
  // Seeded from this run's id: every retry, worker restart and replay sends the same key, so no duplicate.
  const idempotencyKey = v.input.idempotencyKey ?? uuid4();
  v.verificationId =
    intake.version === 'v2'
      ? await createV2(v, intake, { ...target, payerId }, idempotencyKey)
      : await createV1(v, intake, { ...target, payerId });
  v.enter(v.runs.pending.length > 0 ? 'awaiting-input' : 'created', [{ key: VerificationId, value: v.verificationId }]);

  // created / awaiting-input
  const waited = await v.runs.waitForInput(v.timing.graceSeconds, v.timing.inputDeadlineSeconds, v.stopped);
  return v.settle(waited === 'stopped' ? 'cancelled' : waited);
}

/** What the intake itself says of the payer and the member. */
function fromIntake(intake: VerificationIntake): Target {
  return { payerId: intake.payerId, memberId: intakeMemberId(intake), payerNamedByService: false };
}
