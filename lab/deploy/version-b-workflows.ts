// Version B of the workflow code for `npm run bench:deploy`: every workflow as it is, except that a verification first
// sleeps a moment, a timer command version A never issues. A history made on A and replayed on B would fail as
// non-deterministic, so the bench shows that pinning keeps each verification on the code it started with.
import { sleep } from '@temporalio/workflow';
import type { VerificationWorkflowInput } from '../../workflows/verification/verification.js';
import { verificationWorkflow as onA } from '../../workflows/verification/index.js';

export * from '../../workflows/index.js';

export async function verificationWorkflow(input: VerificationWorkflowInput): ReturnType<typeof onA> {
  await sleep(1);
  return onA(input);
}
