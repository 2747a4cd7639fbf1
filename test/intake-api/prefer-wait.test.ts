import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { VerificationStatus } from '../../workflows/verification/verification.js';
import { preferredWait } from '../../apps/intake-api/prefer-wait.js';
import { callerId, TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { startIntakeApiHarness } from '../../testing/intake-api-harness.js';
import { DISCOVERY_PATIENT, pendingDiscovery } from '../../testing/sandbox.js';
import type { WorkflowHarness } from '../../testing/workflow-harness.js';

type Answer = { workflowId: string; duplicate?: true; status?: VerificationStatus };

/** The front desk's synchronous answer: `POST /verifications` with `Prefer: wait=<seconds>` (RFC 7240). */
describe('intake API: Prefer: wait', function () {
  this.timeout(40_000);
  let h: WorkflowHarness;
  let api: FastifyInstance;
  let stop: (() => Promise<void>) | undefined;

  before(async () => {
    ({ harness: h, api, stop } = await startIntakeApiHarness());
  });
  after(() => stop?.());

  const start = (body: unknown, prefer?: string) =>
    api.inject({
      method: 'POST',
      url: '/verifications',
      headers: { 'x-api-key': TEST_INTAKE_KEY, ...(prefer ? { prefer } : {}) },
      payload: body as object,
    });

  it('answers 200 with the status once the verification is created, and says it applied the preference', async () => {
    const response = await start(v2Intake({ id: callerId('wait') }), 'wait=10');
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<Answer>();
    assert.ok(body.status && ['created', 'completed'].includes(body.status.stage), body.status?.stage);
    assert.ok(body.status.verificationId, 'the service has it');
    assert.equal(response.headers['preference-applied'], 'wait=10');
    assert.equal(response.headers.location, `/verifications/${body.workflowId}`);
  });

  it('answers 202 when the verification has not settled within the wait (a discovery still under way)', async () => {
    const discovery = await pendingDiscovery(h.sandbox);
    const began = Date.now();
    const response = await start(
      v2Intake({ id: callerId('slow'), payerId: undefined, discoveryId: discovery.discoveryId }),
      'respond-async, wait=1',
    );
    const took = Date.now() - began;
    assert.equal(response.statusCode, 202, response.body);
    assert.equal(response.json<Answer>().status, undefined);
    assert.equal(response.headers['preference-applied'], 'wait=1');
    assert.ok(took >= 900 && took < 5000, `answered after ${took} ms`);
  });

  it('waits on the same verification when the request is retried: one start, one creation at the service', async () => {
    const body = v2Intake({ id: callerId('retried') });
    const before = (await h.sandbox.stats()).verificationsCreated;
    const answers = await Promise.all(Array.from({ length: 5 }, () => start(body, 'wait=10')));
    const parsed = answers.map((a) => a.json<Answer>());
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200, 200, 200],
    );
    assert.equal(new Set(parsed.map((a) => a.workflowId)).size, 1);
    assert.equal(parsed.filter((a) => !a.duplicate).length, 1, 'exactly one of them started it');
    assert.equal(new Set(parsed.map((a) => a.status?.verificationId)).size, 1);
    assert.equal((await h.sandbox.stats()).verificationsCreated - before, 1);
  });

  it('answers an outcome reached within the wait (no coverage)', async () => {
    const discovery = await h.sandbox.createDiscovery({ ...DISCOVERY_PATIENT, lastName: 'Nocoverage', delayMs: 0 });
    const response = await start(
      v2Intake({ id: callerId('none'), payerId: undefined, discoveryId: discovery.discoveryId }),
      'wait=10',
    );
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<Answer>().status?.stage, 'no-coverage');
  });

  it('reads the preference as RFC 7240 does: malformed ones ignored, the wait capped at 30 s', () => {
    assert.equal(preferredWait('wait=5'), 5);
    assert.equal(preferredWait('respond-async, wait=12'), 12);
    assert.equal(preferredWait(['handling=lenient', 'WAIT = "7"']), 7);
    assert.equal(preferredWait('wait=999'), 30);
    assert.equal(preferredWait('wait=soon'), undefined);
    assert.equal(preferredWait('return=minimal'), undefined);
    assert.equal(preferredWait(undefined), undefined);
  });

  it('answers at once without a usable preference', async () => {
    const response = await start(v2Intake({ id: callerId('nowait') }), 'wait=soon');
    assert.equal(response.statusCode, 202);
    assert.equal(response.headers['preference-applied'], undefined);
  });
});
