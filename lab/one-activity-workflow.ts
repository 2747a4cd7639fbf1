import { proxyActivities } from '@temporalio/workflow';

/** The activity it calls: does nothing (registered by lab/worker-child.ts). */
export interface NoopActivities {
  noop(): Promise<void>;
}

const { noop } = proxyActivities<NoopActivities>({ startToCloseTimeout: '10 seconds' });

/**
 * The yardstick of `npm run bench:worker-cpu`: the least a workflow can do with an activity. It takes the same
 * (encrypted) input as a verification and ignores it, so both pay the same payload decoding at start.
 */
export async function oneActivityWorkflow(_request: unknown): Promise<void> {
  await noop();
}
