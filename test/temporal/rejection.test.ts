import assert from 'node:assert/strict';
import { ApplicationFailure, WorkflowUpdateFailedError } from '@temporalio/client';
import { describeRejection } from '../../src/temporal/rejection.js';

const refused = (message: string, param?: string) =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.create({
      type: 'InvalidRequest',
      message,
      nonRetryable: true,
      details: [param ? { param } : {}],
    }),
  );

describe('rejections of an update, said once', () => {
  it('takes the param out of the service’s message and says it was the service that refused', () => {
    assert.deepEqual(describeRejection(refused('400 invalid_request_error (param input)', 'input')), {
      param: 'input',
      reason: 'the service refused it (400 invalid_request_error)',
    });
  });

  it('takes the param prefix out of the workflow validator’s message and keeps its reason', () => {
    const rejection = describeRejection(
      refused('flowRunId: no run of this workflow awaits input under this flowRunId', 'flowRunId'),
    );
    assert.deepEqual(rejection, {
      param: 'flowRunId',
      reason: 'no run of this workflow awaits input under this flowRunId',
    });
  });

  it('keeps a message without a param as it is, and survives a failure with no cause', () => {
    assert.deepEqual(describeRejection(refused('the run was cancelled')), {
      param: undefined,
      reason: 'the run was cancelled',
    });
    assert.deepEqual(describeRejection(new WorkflowUpdateFailedError('Workflow Update failed', undefined)), {
      param: undefined,
      reason: 'Workflow Update failed',
    });
  });
});
