import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, type WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { createActivities } from '../../activities/index.js';
import { EligibilityClient } from '../../src/client/index.js';
import { encryptedDataConverter } from '../../src/codec/data-converter.js';
import {
  ENCRYPTED_ENCODING,
  EncryptionCodec,
  KEY_ID_METADATA,
  payloadWorkflowId,
} from '../../src/codec/encryption-codec.js';
import { generateKey } from '../../src/codec/keys.js';
import { loadConfig } from '../../src/config.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import {
  runAwaitingInputSignal,
  statusQuery,
  supplyRunInputUpdate,
} from '../../workflows/verification/verification.js';
import { createWorker } from '../../workers/create-worker.js';
import { workflowBundle } from '../../testing/bundle.js';
import { testBlindIndex, testCodecKeys } from '../../testing/codec.js';
import { PatientIndex } from '../../workflows/shared/search-attributes.js';
import { startTestSandbox, type TestSandbox } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually } from '../../testing/workflow-harness.js';

// Recognisable patient values: none of them may appear anywhere in what Temporal stores.
const PHI = {
  firstName: 'Phionella',
  lastName: 'Secretworth',
  dateOfBirth: '04/05/1967',
  memberId: 'MBRPHI778899',
  note: 'Phionella allergic to penicillin',
};

/**
 * Every payload of a history, wherever it sits (inputs, results, signals, updates, failures, memo), but search
 * attributes: the server must read those to index them, so no codec touches them; they carry identifiers only.
 */
function payloadsOf(value: unknown, found: Payload[] = [], path = ''): Payload[] {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return found;
  const record = value as Record<string, unknown>;
  if ('metadata' in record && 'data' in record && record.data instanceof Uint8Array) found.push(record);
  for (const [key, child] of Object.entries(record)) {
    // Search attributes and headers are not payload data: the server indexes the first, and the SDK sends the second
    // unencoded (checked apart, by `headersOf`). A `patched()` marker's details are written by the SDK's core, never
    // through the codec, and hold only the patch id (`{"id":"retry-window","deprecated":false}`). A local activity's
    // marker has the same from core, its `data` (sequence, attempt, activity type, times: checked by `localActivityData`);
    // its result goes through the codec.
    const coreMarkerData = key === 'data' && path.endsWith('markerRecordedEventAttributes.details');
    if (key !== 'searchAttributes' && key !== 'header' && key !== 'patch-data' && !coreMarkerData)
      payloadsOf(child, found, `${path}.${key}`);
  }
  return found;
}

/** What core recorded of each local activity (its marker's `data`), decoded: no input, no result. */
function localActivityData(history: { events?: unknown[] | null }): Record<string, unknown>[] {
  return (history.events ?? []).flatMap((e) => {
    const details = (e as { markerRecordedEventAttributes?: { details?: Record<string, { payloads?: Payload[] }> } })
      .markerRecordedEventAttributes?.details;
    return (details?.data?.payloads ?? []).map(
      (p) => JSON.parse(Buffer.from(p.data ?? new Uint8Array()).toString()) as Record<string, unknown>,
    );
  });
}

/** Every header of the history, by field name, decoded (the SDK writes them as plain JSON). */
function headersOf(value: unknown, found: [string, unknown][] = []): [string, unknown][] {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return found;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const fields = key === 'header' ? (child as { fields?: Record<string, Payload> } | null)?.fields : undefined;
    if (!fields) headersOf(child, found);
    else
      for (const [name, p] of Object.entries(fields)) found.push([name, JSON.parse(Buffer.from(p.data!).toString())]);
  }
  return found;
}

/** The history as text with every byte array spelled out, so a plaintext value anywhere would be found. */
function rawText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v));
}

const keyIdOf = (p: Payload) => Buffer.from(p.metadata?.[KEY_ID_METADATA] ?? new Uint8Array()).toString();

describe('patient data in Temporal', function () {
  this.timeout(60_000);
  let sandbox: TestSandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(async () => sandbox?.close());

  /** A worker with its own task queue and converter, stoppable to simulate a restart. */
  async function worker(taskQueue: string, keys: string) {
    const config = loadConfig('worker', { ELIGIBILITY_BASE_URL: sandbox.url });
    const w = await createWorker({
      connection: testTemporal().nativeConnection,
      namespace: testTemporal().server.namespace,
      taskQueue,
      activities: createActivities(new EligibilityClient(config.service)),
      dataConverter: encryptedDataConverter(testCodecKeys(keys)),
      maxActivitiesPerSecond: 100,
      workflowBundle: await workflowBundle(),
    });
    const running = w.run();
    return {
      w,
      stop: async () => {
        w.shutdown();
        await running;
      },
    };
  }

  function clientWith(keys: string): Client {
    return new Client({
      connection: testTemporal().connection,
      dataConverter: encryptedDataConverter(testCodecKeys(keys)),
    });
  }

  /** Starts an ABA verification (its run awaits input) with the PHI above, and waits until the run is known. */
  async function startWithRun(client: Client, taskQueue: string) {
    const { workflowId } = await startVerification(
      client,
      {
        id: `phi-${randomUUID()}`,
        patient: {
          firstName: PHI.firstName,
          lastName: PHI.lastName,
          dateOfBirth: PHI.dateOfBirth,
          memberId: PHI.memberId,
        },
        payerId: '60054',
        placeOfServiceCode: '11',
        specialtyCode: 'ABA',
      },
      { taskQueue, timing: { graceSeconds: 60 }, blindIndex: testBlindIndex() },
    );
    const wf: WorkflowHandle<typeof verificationWorkflow> = client.workflow.getHandle(workflowId);
    const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
    const [run] = await sandbox.runs(verificationId);
    assert.ok(run, 'the sandbox opened a run');
    await wf.signal(runAwaitingInputSignal, { flowRunId: run.flowRunId });
    await eventually(async () => ((await wf.query(statusQuery)).stage === 'awaiting-input' ? true : undefined));
    return { wf, flowRunId: run.flowRunId };
  }

  it('stores only ciphertext: no PHI in the raw history, and the codec decodes it back', async () => {
    const keys = generateKey('phi');
    const taskQueue = `phi-${randomUUID()}`;
    const w = await worker(taskQueue, keys);
    try {
      const client = clientWith(keys);
      const { wf, flowRunId } = await startWithRun(client, taskQueue);
      const answer = await wf.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: { note: PHI.note } }] });
      assert.equal(answer.status, 'CREATED');
      assert.equal((await wf.result()).outcome, 'completed');

      // A client with no codec sees what the database holds.
      const raw = new Client({ connection: testTemporal().connection });
      const history = await raw.workflow.getHandle(wf.workflowId).fetchHistory();
      const text = rawText(history);
      assert.deepEqual(
        Object.values(PHI).filter((v) => text.includes(v)),
        [],
        'PHI found in the raw history',
      );
      // Every search attribute as visibility stores and shows it: identifiers and keyed hashes, no patient value in
      // any spelling (the blind index hashes the normalised forms).
      const indexed = (await raw.workflow.getHandle(wf.workflowId).describe()).raw.workflowExecutionInfo
        ?.searchAttributes?.indexedFields;
      const attributes = Object.entries(indexed ?? {}).map(
        ([name, p]) => `${name}=${Buffer.from(p.data ?? new Uint8Array()).toString()}`,
      );
      assert.ok(
        attributes.some((a) => a.startsWith(`${PatientIndex.name}=`)),
        `the patient index is set: ${attributes.join(' ')}`,
      );
      const spellings = [...Object.values(PHI), 'SECRETWORTH', 'secretworth', '19670405', '1967-04-05', 'PHIONELLA'];
      const allAttributes = attributes.join('\n');
      assert.deepEqual(
        spellings.filter((v) => allAttributes.toLowerCase().includes(v.toLowerCase())),
        [],
        'a patient value in a search attribute',
      );
      const payloads = payloadsOf(history);
      assert.ok(payloads.length >= 8, `payloads found: ${payloads.length}`);
      for (const p of payloads) {
        assert.equal(Buffer.from(p.metadata?.encoding ?? new Uint8Array()).toString(), ENCRYPTED_ENCODING);
      }
      // The events it emitted, one local activity each: core's record of them holds no patient value.
      const emitted = localActivityData(history);
      assert.ok(emitted.length >= 2, `local activities recorded: ${emitted.length}`);
      for (const data of emitted) {
        assert.equal(data.activity_type, 'emitEvent');
        const text = JSON.stringify(data).toLowerCase();
        assert.deepEqual(
          spellings.filter((v) => text.includes(v.toLowerCase())),
          [],
          'a patient value in a marker',
        );
      }
      // Each names its workflow, which the codec server checks the tenant of before it decodes for a person: this one
      // (its events are local activities' inputs here, not signals to a dispatcher).
      assert.deepEqual([...new Set(payloads.map(payloadWorkflowId))], [wf.workflowId]);
      // Headers carry the OpenTelemetry trace context (workers/workflow-bundle.ts), and nothing else.
      for (const [name, value] of headersOf(history)) {
        assert.equal(name, '_tracer-data');
        assert.deepEqual(
          Object.keys(value as object).filter((k) => !['traceparent', 'tracestate'].includes(k)),
          [],
        );
      }
      // The codec is what turns them back into the patient's data.
      const decoded = await new EncryptionCodec(testCodecKeys(keys)).decode(payloads);
      const plain = decoded.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString()).join('\n');
      for (const value of [PHI.firstName, PHI.lastName, PHI.dateOfBirth, PHI.memberId, PHI.note]) {
        assert.ok(plain.includes(value), `${value} decodes from the history`);
      }
    } finally {
      await w.stop();
    }
  });

  it('finishes a workflow started under key A after the worker restarts with key B current and A kept', async () => {
    const keyA = generateKey('keyA');
    const keyB = generateKey('keyB');
    const taskQueue = `rotate-${randomUUID()}`;
    const before = await worker(taskQueue, keyA);
    const { wf, flowRunId } = await startWithRun(clientWith(keyA), taskQueue);
    await before.stop();

    const rotated = `${keyB},${keyA}`; // B encrypts; A still decrypts
    const after = await worker(taskQueue, rotated);
    try {
      const handle = clientWith(rotated).workflow.getHandle<typeof verificationWorkflow>(wf.workflowId);
      await handle.executeUpdate(supplyRunInputUpdate, { args: [{ flowRunId, input: { note: 'rotated' } }] });
      assert.equal((await handle.result()).outcome, 'completed');
      const payloads = payloadsOf(
        await new Client({ connection: testTemporal().connection }).workflow.getHandle(wf.workflowId).fetchHistory(),
      );
      const ids = new Set(payloads.map(keyIdOf));
      assert.ok(ids.has('keyA'), 'payloads written before the rotation are under key A');
      assert.ok(ids.has('keyB'), 'payloads written after it are under key B');
    } finally {
      await after.stop();
    }
  });
});
