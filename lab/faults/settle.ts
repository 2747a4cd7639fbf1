import { WorkflowNotFoundError, type Client, type WorkflowExecutionDescription } from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import { verificationWorkflowId } from '../../workflows/shared/ids.js';
import { VerificationStage } from '../../workflows/shared/search-attributes.js';
import { indexedStage } from '../../src/temporal/workflow-ending.js';
import { inLanes } from './intake-http.js';
import { NEEDS_REVIEW_STAGE } from './needs-review.js';

/**
 * Where one row ended: `verified` (the workflow holds a verification id: created, awaiting input or completed),
 * `needs-review` (waiting for a person), or `lost` (no workflow, still working at the deadline, or ended without a
 * verification: failed, terminated, timed out, any other outcome — every row of a scenario is a valid patient).
 */
export type RowState = 'verified' | 'needs-review' | 'lost';

export interface RowResult {
  callerId: string;
  workflowId: string;
  state: RowState;
  /** Execution status and stage, e.g. `RUNNING creating`, or `no workflow`. */
  detail: string;
}

const VERIFIED_STAGES = new Set(['created', 'awaiting-input', 'completed']);

function classify(
  callerId: string,
  description: WorkflowExecutionDescription | undefined,
): { settled: boolean; result: RowResult } {
  const workflowId = verificationWorkflowId(callerId);
  if (!description) return { settled: false, result: { callerId, workflowId, state: 'lost', detail: 'no workflow' } };
  const status = description.status.name;
  const stage = indexedStage(status, description.typedSearchAttributes.get(VerificationStage)) ?? 'unknown';
  const detail = `${status} ${stage}`;
  const result = (state: RowState): RowResult => ({ callerId, workflowId, state, detail });
  if (status === 'RUNNING') {
    if (VERIFIED_STAGES.has(stage)) return { settled: true, result: result('verified') };
    if (stage === NEEDS_REVIEW_STAGE) return { settled: true, result: result('needs-review') };
    return { settled: false, result: result('lost') };
  }
  return { settled: true, result: result(status === 'COMPLETED' && stage === 'completed' ? 'verified' : 'lost') };
}

async function describe(client: Client, callerId: string): Promise<WorkflowExecutionDescription | undefined> {
  try {
    return await client.workflow.getHandle(verificationWorkflowId(callerId)).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return undefined;
    throw err;
  }
}

/**
 * Polls the rows' workflows until each is settled or `timeoutMs` has passed; what is still working then is lost.
 * A row that settles stays settled (a verified row that completes later is still verified).
 */
export async function waitForSettled(
  client: Client,
  callerIds: readonly string[],
  options: { timeoutMs: number; log: (line: string) => void; label: string },
): Promise<RowResult[]> {
  const results = new Map<string, RowResult>();
  const pending = new Set(callerIds);
  const deadline = Date.now() + options.timeoutMs;
  let lastLog = Date.now();
  for (;;) {
    await inLanes([...pending], 16, async (callerId) => {
      // Temporal may be briefly unreachable (a scenario restarts it): the row is probed again next round.
      const described = await describe(client, callerId).catch(() => 'unreachable' as const);
      if (described === 'unreachable') return;
      const { settled, result } = classify(callerId, described);
      results.set(callerId, result);
      if (settled) pending.delete(callerId);
    });
    if (pending.size === 0 || Date.now() > deadline) break;
    if (Date.now() - lastLog >= 10_000) {
      lastLog = Date.now();
      const left = Math.round((deadline - Date.now()) / 1000);
      options.log(
        `  ${options.label}: ${callerIds.length - pending.size}/${callerIds.length} settled (${left} s left)`,
      );
    }
    await sleep(1000);
  }
  return callerIds.map(
    (callerId) =>
      results.get(callerId) ?? {
        callerId,
        workflowId: verificationWorkflowId(callerId),
        state: 'lost',
        detail: 'not reachable',
      },
  );
}
