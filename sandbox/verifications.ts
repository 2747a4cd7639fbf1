import { randomUUID } from 'node:crypto';
import { RUN_PENDING_EVENT, type RequestedInput } from '../src/contract/index.js';
import type { SandboxContext } from './context.js';
import type { RunRecord, VerificationRecord } from './state.js';

/** Magic specialty: a v2 verification with it opens one run awaiting callback input. */
export const RUN_SPECIALTY_CODE = 'ABA';

/** What the sandbox's ABA run asks for, announced in its `sandbox.run.pending` event (`requestedInput`). */
export const RUN_REQUESTED_INPUT: RequestedInput = {
  fields: ['authorizationNumber'],
  description: 'The prior authorization number of the ABA therapy (any non-empty object is accepted).',
};

/** Records a verification; an ABA verification also opens a pending run and announces it (ids and what it asks for). */
export function createVerification(
  ctx: SandboxContext,
  fields: Pick<VerificationRecord, 'version' | 'payerId' | 'id'> & { specialtyCode?: string },
): VerificationRecord {
  const record: VerificationRecord = {
    verificationId: randomUUID(),
    version: fields.version,
    payerId: fields.payerId,
    ...(fields.id === undefined ? {} : { id: fields.id }),
    created: new Date().toISOString(),
  };
  ctx.state.verifications.set(record.verificationId, record);
  ctx.stats.add('verificationsCreated');
  if (fields.specialtyCode === RUN_SPECIALTY_CODE) openRun(ctx, record);
  return record;
}

function openRun(ctx: SandboxContext, verification: VerificationRecord): RunRecord {
  const run: RunRecord = {
    flowRunId: randomUUID(),
    status: 'PENDING',
    verificationId: verification.verificationId,
    ...(verification.id === undefined ? {} : { id: verification.id }),
    context: {},
  };
  ctx.state.runs.set(run.flowRunId, run);
  ctx.webhooks.emit(RUN_PENDING_EVENT, {
    flowRunId: run.flowRunId,
    verificationId: run.verificationId,
    ...(run.id === undefined ? {} : { id: run.id }),
    requestedInput: RUN_REQUESTED_INPUT,
  });
  return run;
}
