import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { cancelSignal, runAwaitingInputSignal } from '../../workflows/verification/verification.js';
import type { VerificationStatus } from '../../workflows/verification/verification.js';
import { testDatabaseUrl, testStore } from '../../testing/database.js';
import { openStore } from '../../src/store/database.js';
import { buildProgram } from '../../apps/cli/program.js';
import type { CliContext } from '../../apps/cli/context.js';
import { testCodecEnv } from '../../testing/codec.js';
import { temporalEnv, testTemporal } from '../../testing/temporal.js';
import { FAST, TEST_INTAKE_KEY, v1Intake, v2Intake } from '../../testing/fixtures.js';
import { eventually, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { pendingDiscovery } from '../../testing/sandbox.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { captureLogs } from '../../testing/log-capture.js';

describe('intake API', function () {
  this.timeout(40_000);
  let h: WorkflowHarness;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;
  const client = () => testTemporal().client;
  /** What the API logged at warn and above. */
  const logged = captureLogs();

  before(async () => {
    ({ harness: h, api, stop } = await startIntakeApiHarness({ logs: logged.sink }));
  });
  after(() => stop?.());

  const call = (options: InjectOptions) =>
    api.inject({
      ...options,
      headers: { 'x-api-key': TEST_INTAKE_KEY, ...(options.headers as Record<string, string>) },
    });
  const post = (url: string, payload: unknown) => call({ method: 'POST', url, payload: payload as object });

  it('refuses a missing or wrong API key with 401', async () => {
    const missing = await api.inject({ method: 'GET', url: '/verifications' });
    const wrong = await api.inject({
      method: 'POST',
      url: '/verifications',
      headers: { 'x-api-key': 'nope' },
      payload: {},
    });
    for (const response of [missing, wrong]) {
      assert.equal(response.statusCode, 401);
      assert.equal(response.json<{ error: string }>().error, 'unauthorized');
    }
  });

  it('names the invalid field of a request, and starts nothing', async () => {
    const bad = v2Intake({ patient: { firstName: 'Ada', lastName: 'Lovelace', dateOfBirth: '1985-13-10' } });
    const response = await post('/verifications', bad);
    assert.equal(response.statusCode, 400);
    const body = response.json<{ error: string; param: string }>();
    assert.equal(body.error, 'invalid_request_error');
    assert.equal(body.param, 'patient.dateOfBirth');
    assert.doesNotMatch(response.body, /1985-13-10/, 'the value is not echoed');
    const noPayer = await post('/verifications', v2Intake({ payerId: undefined }));
    assert.deepEqual([noPayer.statusCode, noPayer.json<{ param: string }>().param], [400, 'payerId']);
    const malformed = await call({
      method: 'POST',
      url: '/verifications',
      headers: { 'content-type': 'application/json' },
      payload: '{"id": "x", "patient": {',
    });
    assert.deepEqual([malformed.statusCode, malformed.json<{ param: string }>().param], [400, 'body']);
    assert.doesNotMatch(malformed.body, /patient/);
    const plainText = await call({
      method: 'POST',
      url: '/verifications',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify(v2Intake()),
    });
    assert.deepEqual(
      [plainText.statusCode, plainText.json<{ error: string }>().error],
      [415, 'unsupported_media_type'],
    );
    const misspelled = await post('/verifications', v2Intake({ patient: { ...v2Intake().patient, memberID: 'W77' } }));
    assert.deepEqual([misspelled.statusCode, misspelled.json<{ param: string }>().param], [400, 'patient.memberID']);
    assert.doesNotMatch(misspelled.body, /W77/);
  });

  it('starts a verification once per caller id and reports its status', async () => {
    const request = v2Intake();
    const first = await post('/verifications', request);
    assert.equal(first.statusCode, 202);
    const { workflowId } = first.json<{ workflowId: string }>();
    assert.equal(workflowId, `verification-${request.id}`);
    const again = await post('/verifications', request);
    assert.equal(again.statusCode, 200);
    assert.deepEqual(again.json(), { workflowId, duplicate: true });

    await client().workflow.getHandle(workflowId).result();
    const closed = await post('/verifications', request);
    assert.deepEqual(closed.json(), { workflowId, duplicate: true }, 'a closed one is a duplicate too');
    const { count } = await client().workflow.count(`WorkflowId = "${workflowId}"`);
    assert.equal(count, 1, 'one workflow');
    assert.equal((await h.sandbox.stats()).verificationsCreated, 1);

    const status = await call({ method: 'GET', url: `/verifications/${workflowId}` });
    assert.equal(status.statusCode, 200);
    const body = status.json<VerificationStatus>();
    assert.equal(body.stage, 'completed');
    assert.equal(body.callerId, request.id);
    assert.match(body.verificationId ?? '', /^[0-9a-f-]{36}$/);
    assert.doesNotMatch(status.body, /Lovelace|12\/10\/1985|M1234567/, 'no patient data');
  });

  it('answers 404 for an unknown workflow', async () => {
    const response = await call({ method: 'GET', url: '/verifications/verification-no-such-id' });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json<{ error: string }>().error, 'not_found');
  });

  it('runs the supplyRunInput update: the service’s 400 names input, good input is accepted, each answer audited', async () => {
    // A grace period long enough for the test to tell the workflow about the run before it completes; an audit trail
    // for what the answers record.
    const config = loadConfig('intake', { INTAKE_API_KEY: TEST_INTAKE_KEY, LOG_LEVEL: 'silent' });
    const store = await testStore();
    const audit = new AuditTrail(store);
    const slowApi = createIntakeApi({
      config,
      client: client(),
      taskQueue: h.taskQueue,
      logger: createLogger(config),
      timing: { ...FAST, graceSeconds: 30 },
      access: { audit },
    });
    const answer = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      slowApi.inject({
        method: 'POST',
        url,
        headers: { 'x-api-key': TEST_INTAKE_KEY, ...headers },
        payload: payload as object,
      });
    try {
      const started = await answer('/verifications', { ...v2Intake({ specialtyCode: 'ABA' }), tenant: 'clinic-r' });
      assert.equal(started.statusCode, 202);
      const { workflowId } = started.json<{ workflowId: string }>();
      const handle = client().workflow.getHandle(workflowId);
      const status = async () =>
        (await call({ method: 'GET', url: `/verifications/${workflowId}` })).json<VerificationStatus>();
      const verificationId = await eventually(async () => (await status()).verificationId);
      const [run] = await eventually(async () => {
        const runs = await h.sandbox.runs(verificationId);
        return runs.length > 0 ? runs : undefined;
      });
      const flowRunId = run!.flowRunId;
      await handle.signal(runAwaitingInputSignal, { flowRunId });
      await eventually(async () => ((await status()).stage === 'awaiting-input' ? true : undefined));

      const url = `/verifications/${workflowId}/runs/${flowRunId}/input`;
      const empty = await answer(url, { input: {} });
      assert.equal(empty.statusCode, 400);
      assert.equal(empty.json<{ param: string }>().param, 'input');
      assert.equal(empty.json<{ message: string }>().message, 'the service refused it (400 invalid_request_error)');
      const notObject = await answer(url, { input: 'yes' });
      assert.deepEqual([notObject.statusCode, notObject.json<{ param: string }>().param], [400, 'input']);
      const unknownRun = await answer(`/verifications/${workflowId}/runs/no-such-run/input`, { input: { a: 1 } });
      assert.deepEqual([unknownRun.statusCode, unknownRun.json<{ param: string }>().param], [400, 'flowRunId']);

      // The CLI's `supply-input`, run in this process: a refused answer is on the trail as `refused` too.
      const schema = `test_${randomUUID().replaceAll('-', '')}`;
      const cliStore = await openStore(testDatabaseUrl(), { schema });
      try {
        const database = new URL(testDatabaseUrl());
        database.searchParams.set('options', `-c search_path=${schema}`);
        const cliConfig = loadConfig('cli', {
          ...temporalEnv(h.taskQueue),
          ...testCodecEnv(),
          DATABASE_URL: database.toString(),
          LOG_LEVEL: 'silent',
        });
        const ctx: CliContext = { config: () => cliConfig, identity: () => 'cli:tester', named: () => undefined };
        const cliArgs = ['supply-input', workflowId, flowRunId, '--input', '{}'];
        const refused = await buildProgram(ctx)
          .parseAsync(['node', 'eligibility', ...cliArgs])
          .then(
            () => undefined,
            (err: unknown) => err,
          );
        assert.match(String(refused), /input rejected \(param input\)/);
        const cliEntries = await new AuditTrail(cliStore).list({ workflowId });
        assert.deepEqual(
          cliEntries.map((e) => [e.action, e.outcome, e.actor, e.tenant, e.fields]),
          [['run.answer', 'refused', 'cli:tester', 'clinic-r', []]],
        );
      } finally {
        await cliStore.close();
      }

      const key = { 'idempotency-key': `answer-${randomUUID()}` };
      const accepted = await answer(url, { input: { authorizationNumber: 'A-100' } }, key);
      assert.equal(accepted.statusCode, 200);
      assert.deepEqual(accepted.json(), { flowRunId, status: 'CREATED' });
      const repeated = await answer(url, { input: { authorizationNumber: 'A-100' } }, key);
      assert.deepEqual([repeated.statusCode, repeated.json()], [200, { flowRunId, status: 'CREATED' }]);
      assert.deepEqual((await status()).runs, [{ flowRunId, state: 'answered', serviceStatus: 'CREATED' }]);
      // Refusals as the console records them, a repeat never a second `ok`; each with the verification's tenant.
      const entries = (await audit.list({ workflowId })).filter((e) => e.action === 'run.answer');
      assert.deepEqual(
        entries.map((e) => [e.outcome, e.tenant]),
        [
          ['refused', 'clinic-r'],
          ['refused', 'clinic-r'],
          ['ok', 'clinic-r'],
          ['repeated', 'clinic-r'],
        ],
      );
      assert.ok(!JSON.stringify(entries).includes('A-100'), 'field names, never values');
      await eventually(async () => ((await status()).stage === 'completed' ? true : undefined));
    } finally {
      await slowApi.close();
      await store.close();
    }
  });

  it('lists verifications by stage from search attributes, and names an unknown stage', async () => {
    const discovery = await pendingDiscovery(h.sandbox);
    const request = v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId });
    delete (request.patient as { memberId?: string }).memberId;
    const started = await post('/verifications', request);
    const { workflowId } = started.json<{ workflowId: string }>();
    type Item = { workflowId: string; stage: string; discoveryId: string; status: string; startTime: string };
    const item = await eventually(async () => {
      const response = await call({ method: 'GET', url: '/verifications?stage=awaiting-discovery&limit=50' });
      assert.equal(response.statusCode, 200);
      return response.json<{ verifications: Item[] }>().verifications.find((i) => i.workflowId === workflowId);
    }, 15_000);
    assert.equal(item.stage, 'awaiting-discovery');
    assert.equal(item.discoveryId, discovery.discoveryId);
    assert.equal(item.status, 'RUNNING');
    assert.ok(!Number.isNaN(Date.parse(item.startTime)));
    assert.deepEqual(Object.keys(item).sort(), [
      'discoveryId',
      'payerId',
      'stage',
      'startTime',
      'status',
      'verificationId',
      'workflowId',
    ]);
    const limited = await call({ method: 'GET', url: '/verifications?limit=1' });
    const page = limited.json<{ verifications: Item[]; nextPageToken?: string }>();
    assert.equal(page.verifications.length, 1);
    assert.ok(page.nextPageToken, 'more than one verification: a next page');

    const bad = await call({ method: 'GET', url: '/verifications?stage=sleeping' });
    assert.deepEqual([bad.statusCode, bad.json<{ param: string }>().param], [400, 'stage']);
    await client().workflow.getHandle(workflowId).signal(cancelSignal, { reason: 'test' });
  });

  it('takes a review decision for a v1 verification in needs-review, refusing a bad one by param', async () => {
    await h.sandbox.setFaults({ dropResponses: 1 });
    const started = await post('/verifications', v1Intake());
    assert.equal(started.statusCode, 202);
    const { workflowId } = started.json<{ workflowId: string }>();
    const url = `/verifications/${workflowId}/review`;
    const status = async () =>
      (await call({ method: 'GET', url: `/verifications/${workflowId}` })).json<VerificationStatus>();
    const waiting = await eventually(async () => {
      const s = await status();
      return s.stage === 'needs-review' ? s : undefined;
    });
    assert.match(waiting.review?.reason ?? '', /outcome unknown/);
    assert.equal(waiting.lastError?.type, 'AmbiguousOutcome');
    const createdBefore = (await h.sandbox.stats()).verificationsCreated;

    const badId = await post(url, { action: 'record', verificationId: 'nope' });
    assert.deepEqual([badId.statusCode, badId.json<{ param: string }>().param], [400, 'verificationId']);
    const badAction = await post(url, { action: 'redo' });
    assert.deepEqual([badAction.statusCode, badAction.json<{ param: string }>().param], [400, 'action']);

    const retried = await post(url, { action: 'retry' });
    assert.equal(retried.statusCode, 200);
    assert.deepEqual(retried.json(), { accepted: 'retry' });
    await eventually(async () => ((await status()).stage === 'completed' ? true : undefined));
    assert.equal((await h.sandbox.stats()).verificationsCreated, createdBefore + 1, 'a retry calls again');
    // Closed, not only completed: a verification's last events reach its dispatcher before it closes.
    await client().workflow.getHandle(workflowId).result();

    const late = await post(url, { action: 'record', verificationId: randomUUID() });
    assert.equal(late.statusCode, 409);
    assert.deepEqual(late.json(), {
      error: 'workflow_closed',
      // The path's id is not repeated: the message names the parameter.
      message: 'the workflowId has closed (completed); it takes no more decisions',
      outcome: 'completed',
    });
  });

  it('answers 409 to a decision while no review is open', async () => {
    const started = await post('/verifications', v2Intake());
    const { workflowId } = started.json<{ workflowId: string }>();
    const response = await post(`/verifications/${workflowId}/review`, { action: 'abandon' });
    assert.equal(response.statusCode, 409);
    assert.equal(response.json<{ error: string }>().error, 'not_awaiting_review');
  });

  it('cancels a verification; a closed one answers 409 with its outcome to cancel and to run input', async () => {
    const discovery = await pendingDiscovery(h.sandbox);
    const started = await post('/verifications', v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId }));
    const { workflowId } = started.json<{ workflowId: string }>();
    const cancelled = await post(`/verifications/${workflowId}/cancel`, undefined);
    assert.equal(cancelled.statusCode, 202);
    assert.deepEqual(cancelled.json(), { workflowId, cancelling: true });
    const result = (await client().workflow.getHandle(workflowId).result()) as { outcome: string };
    assert.equal(result.outcome, 'cancelled');

    const again = await post(`/verifications/${workflowId}/cancel`, undefined);
    assert.deepEqual([again.statusCode, again.json<{ outcome: string }>().outcome], [409, 'cancelled']);
    const input = await post(`/verifications/${workflowId}/runs/some-run/input`, { input: { a: 1 } });
    assert.equal(input.statusCode, 409);
    assert.deepEqual(input.json<{ error: string; outcome: string }>().error, 'workflow_closed');
    assert.match(input.json<{ message: string }>().message, /has closed \(cancelled\); it takes no more input/);
    const unknown = await post('/verifications/verification-no-such-id/cancel', undefined);
    assert.equal(unknown.statusCode, 404);
    const answeredTwice = logged.chunks.filter((line) => /ALREADY_SENT|already sent/i.test(line));
    assert.deepEqual(answeredTwice, [], 'every request answered once');
  });
});
