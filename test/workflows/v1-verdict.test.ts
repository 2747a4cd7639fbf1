import assert from 'node:assert/strict';
import { ActivityFailure, ApplicationFailure, CancelledFailure, RetryState, TimeoutFailure } from '@temporalio/common';
import { FailureType } from '../../workflows/shared/failure-types.js';
import { ambiguityOf, v1FailureVerdict } from '../../workflows/verification/v1-creation.js';

const activityFailure = (cause: Error) =>
  new ActivityFailure(
    'Activity task failed',
    'createVerificationV1',
    '1',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    'w',
    cause,
  );
const typed = (type: string) => activityFailure(ApplicationFailure.create({ type, message: type }));

describe('the workflow’s verdict on a failed v1 creation (Temporal never retries it)', () => {
  it('retries definite refusals, stops at final ones, and calls everything else ambiguous', () => {
    for (const type of [FailureType.RateLimited, FailureType.Unauthorized, FailureType.NetworkError]) {
      assert.equal(v1FailureVerdict(typed(type)), 'retry', type);
    }
    assert.equal(v1FailureVerdict(typed(FailureType.InvalidRequest)), 'final');
    assert.equal(v1FailureVerdict(typed(FailureType.NotFound)), 'final');
    assert.equal(v1FailureVerdict(typed(FailureType.AmbiguousOutcome)), 'ambiguous');
    assert.equal(v1FailureVerdict(typed('SomethingNew')), 'ambiguous');
    assert.equal(v1FailureVerdict(activityFailure(new CancelledFailure('cancelled'))), 'ambiguous');
    assert.equal(v1FailureVerdict(new Error('not an activity failure')), 'ambiguous');
  });

  it('reads a start-to-close timeout (a stalled call or a lost worker) as ambiguous, a schedule-to-start one as not sent', () => {
    const startToClose = activityFailure(new TimeoutFailure('timed out', undefined, 'START_TO_CLOSE'));
    assert.equal(v1FailureVerdict(startToClose), 'ambiguous');
    assert.deepEqual(ambiguityOf(startToClose), {
      type: FailureType.AmbiguousOutcome,
      message:
        'v1 creation outcome unknown: the call did not finish within its start-to-close timeout (a stalled call or a lost worker)',
    });
    const neverStarted = activityFailure(new TimeoutFailure('timed out', undefined, 'SCHEDULE_TO_START'));
    assert.equal(v1FailureVerdict(neverStarted), 'final');
  });
});
