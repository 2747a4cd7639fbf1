import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { EncryptionCodec } from '../../src/codec/encryption-codec.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { PayerNames } from '../../src/payers/payer-names.js';
import { findView, UI_VIEWS, UiViewError, viewQuery, workflowListUrl } from '../../src/temporal/ui-views.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import {
  runAwaitingInputSignal,
  runInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import { testCodecKeys } from '../../testing/codec.js';
import { recordHistory } from '../../testing/histories.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

// Recognisable patient values: none may appear in what Temporal UI shows of a workflow besides its decrypted payloads.
const PHI = {
  firstName: 'Phionella',
  lastName: 'Secretworth',
  dateOfBirth: '04/05/1967',
  memberId: 'MBRPHI778899',
  state: 'WY',
  note: 'Phionella allergic to penicillin',
};
const patientValues = [PHI.firstName, PHI.lastName, PHI.dateOfBirth, PHI.memberId, PHI.note];
const leaked = (text: string) => patientValues.filter((value) => text.includes(value));

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Every summary Temporal UI shows on an event (activities, timers), decrypted as the codec server would. */
async function eventSummaries(events: HistoryEvent[]): Promise<{ type: string; summary: string | undefined }[]> {
  const codec = new EncryptionCodec(testCodecKeys());
  const named = events.filter((e) => e.activityTaskScheduledEventAttributes || e.timerStartedEventAttributes);
  return Promise.all(
    named.map(async (e) => {
      const payload = e.userMetadata?.summary as Payload | undefined;
      const [decoded] = payload ? await codec.decode([payload]) : [];
      return {
        type: e.activityTaskScheduledEventAttributes?.activityType?.name ?? 'timer',
        summary: decoded ? defaultPayloadConverter.fromPayload<string>(decoded) : undefined,
      };
    }),
  );
}

async function currentDetails(wf: WorkflowHandle): Promise<string> {
  const metadata = await wf.query<{ currentDetails?: string }>('__temporal_workflow_metadata');
  return metadata.currentDetails ?? '';
}

describe('patient data in what Temporal UI shows: summaries, details, current details, views', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  before(async () => {
    h = await startWorkflowHarness();
  });
  after(async () => h?.stop());

  it('names identifiers only, from the start through a rejected input to completion', async () => {
    const client = testTemporal().client;
    const callerId = `phi-ui-${randomUUID()}`;
    // Payer names as the intake API knows them: a person reads the payer by name, beside its id.
    const payerNames = new PayerNames(
      new EligibilityClient(loadConfig('intake', { ELIGIBILITY_BASE_URL: h.sandbox.url }).service),
    );
    await payerNames.names(['60054']);
    const { workflowId } = await startVerification(
      client,
      {
        id: callerId,
        patient: {
          firstName: PHI.firstName,
          lastName: PHI.lastName,
          dateOfBirth: PHI.dateOfBirth,
          memberId: PHI.memberId,
          state: PHI.state,
        },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'ABA',
      },
      { taskQueue: h.taskQueue, timing: { graceSeconds: 60 }, payerNames },
    );
    const wf: WorkflowHandle<typeof verificationWorkflow> = client.workflow.getHandle(workflowId);

    // Static summary and details: the identifiers of the request, decrypted by this client's codec.
    const described = await wf.describe();
    const summary = (await described.staticSummary()) ?? '';
    const details = (await described.staticDetails()) ?? '';
    assert.equal(
      summary,
      `Verification v2 · payer Evergreen Health Plan (60054) · specialty ABA · asked for the front desk · caller id ${callerId}`,
    );
    for (const expected of [
      '**Verification v2**',
      '- payer: `Evergreen Health Plan (60054)`',
      '- specialty: `ABA`',
      '- asked: `for the front desk`',
      `- caller id: \`${callerId}\``,
    ]) {
      assert.ok(details.includes(expected), `details show ${expected}:\n${details}`);
    }
    assert.deepEqual(leaked(summary + details), [], 'patient values in the static summary or details');

    // Current details follow the stage: awaiting input for the run the sandbox opened.
    const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
    const [run] = await h.sandbox.runs(verificationId);
    assert.ok(run, 'the sandbox opened a run');
    await wf.signal(runAwaitingInputSignal, { flowRunId: run.flowRunId });
    const awaiting = await eventually(async () => {
      const text = await currentDetails(wf);
      return text.startsWith('**Awaiting input**') ? text : undefined;
    });
    assert.ok(awaiting.includes(`- pending runs: \`${run.flowRunId}\``), awaiting);
    assert.match(awaiting, /answer the pending runs \(the console’s Needs input/);
    assert.doesNotMatch(awaiting, /supplyRunInput|runInput/, 'no message names in what a person reads');
    assert.match(awaiting, /until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/, 'the input deadline');

    // A rejected input quoting the patient: the details name the field, never the value sent.
    await wf.signal(runInputSignal, {
      flowRunId: run.flowRunId,
      input: PHI.note as unknown as Record<string, unknown>,
    });
    const rejected = await eventually(async () => {
      const text = await currentDetails(wf);
      return text.includes('last error') ? text : undefined;
    });
    assert.ok(
      rejected.includes(`- last error: InvalidRequest on field \`input\` (run \`${run.flowRunId}\`)`),
      rejected,
    );
    assert.deepEqual(leaked(rejected), [], 'patient values in the current details');

    await wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId: run.flowRunId, input: { note: PHI.note } }] });
    assert.equal((await wf.result()).outcome, 'completed');
    // A history with summaries on its activities and timers, replayed by test/workflows/replay.test.ts.
    await recordHistory('run-input-rejected-then-answered', wf);
    const closed = await currentDetails(wf);
    assert.ok(closed.startsWith(`**Completed** · verification \`${verificationId}\``), closed);
    assert.deepEqual(leaked(closed), []);

    // Every activity and timer is named, and no name quotes the patient.
    const summaries = await eventSummaries((await wf.fetchHistory()).events ?? []);
    assert.deepEqual(
      summaries.map((s) => s.type),
      ['lookupPayer', 'createVerificationV2', 'timer', 'timer', 'updateRun'],
    );
    for (const { type, summary: text } of summaries) assert.ok(text, `${type} has a summary`);
    assert.match(summaries[1]!.summary!, /^create verification v2 \(idempotent, key [0-9a-f-]{36}\)$/);
    assert.match(summaries[2]!.summary!, /^grace period before closing/);
    assert.match(summaries[3]!.summary!, /^input deadline/);
    assert.deepEqual(leaked(summaries.map((s) => s.summary).join('\n')), []);
  });

  it('views take identifiers only: a name or a date of birth is refused without being repeated', () => {
    for (const view of UI_VIEWS.filter((v) => v.arg)) {
      for (const value of [`${PHI.firstName} ${PHI.lastName}`, PHI.dateOfBirth, `x" OR Tenant != "`]) {
        assert.throws(
          () => viewQuery(view, value),
          (err: unknown) =>
            err instanceof UiViewError && leaked(err.message).length === 0 && !err.message.includes(value),
          `${view.name} refuses ${value}`,
        );
      }
    }
    const url = workflowListUrl('http://127.0.0.1:8233', 'default', viewQuery(findView('failed'), '60054'));
    assert.deepEqual(leaked(decodeURIComponent(url)), []);
  });
});
