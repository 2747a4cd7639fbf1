import { condition, defineSignal, setHandler } from '@temporalio/workflow';

export const doneSignal = defineSignal('done');

/** The least a cached workflow can hold (`npm run bench:workflow-heap`): a handler and a wait, nothing imported. */
export async function waitingWorkflow(_input: unknown): Promise<void> {
  let done = false;
  setHandler(doneSignal, () => {
    done = true;
  });
  await condition(() => done);
}
