import assert from 'node:assert/strict';
import type { AuditEvent } from '../../src/audit/audit-entry.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import type { Store } from '../../src/store/database.js';
import { batchIdFor, submitRequests } from '../../testing/batches.js';
import { v1Intake, v2Intake } from '../../testing/fixtures.js';
import { testStore } from '../../testing/database.js';
import { testTemporal } from '../../testing/temporal.js';
import { startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import {
  csrfFrom,
  sessionCookie,
  signIn,
  startTestConsole,
  getPage,
  postForm,
  type TestConsole,
} from '../../testing/console-app.js';
import { verificationAwaitingInput, verificationNeedingReview } from '../../testing/waiting-verifications.js';

const HTML = { accept: 'text/html' };
const TENANT = 'clinic-audit';

// The console's audit trail (docs/operating/console.md) against the real stack: the run's dev server, a worker, the
// sandbox and a database of its own. Every disclosure of patient data and every change is an entry, naming fields,
// never values.
describe('operator console audit trail', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let store: Store;
  let trail: AuditTrail;
  let console: TestConsole;
  const client = () => testTemporal().client;

  before(async () => {
    [h, store] = await Promise.all([startWorkflowHarness(), testStore()]);
    trail = new AuditTrail(store);
    console = await startTestConsole(client(), { audit: trail });
  });
  after(async () => {
    await console?.close();
    await h?.stop();
    await store?.close();
  });

  const get = (url: string, cookie: string) => getPage(console, url, cookie);
  const post = (url: string, cookie: string, form: Record<string, string>) => postForm(console, url, cookie, form);

  /** Posts the sign-in form with `name` and `password`; answers the status. */
  async function trySignIn(name: string, password: string) {
    const form = await console.app.inject({ method: 'GET', url: '/sign-in', headers: HTML });
    const cookie = sessionCookie(form.headers['set-cookie']);
    const res = await post('/sign-in', cookie, { _csrf: csrfFrom(form.body), name, password });
    return res.statusCode;
  }

  it('records every sign-in, patient page, results download and change, with the tenant, field names and no patient value', async () => {
    // Sign-ins: a wrong password, a password typed in the name box, then the right one.
    assert.equal(await trySignIn(console.operator.name, 'wrong-password-123'), 401);
    assert.equal(await trySignIn(console.operator.password, console.operator.password), 401);
    const cookie = await signIn(console);

    // A v2 patient: the run's page, the verification page, a refused answer, an accepted one.
    const v2 = await verificationAwaitingInput(h, { tenant: TENANT });
    const runPage = await get(`/runs/${v2.workflowId}`, cookie);
    assert.equal(runPage.statusCode, 200);
    assert.match(runPage.body, /Ada Lovelace/, 'the page shows the patient');
    const verificationPage = await get(`/verifications/${v2.workflowId}`, cookie);
    assert.equal(verificationPage.statusCode, 200);
    const answerUrl = `/runs/${v2.workflowId}/${v2.flowRunId}`;
    // The sandbox refuses an empty object (nothing to patch); the page comes back with the patient and the refusal.
    const refused = await post(answerUrl, cookie, { _csrf: csrfFrom(runPage.body), input: '{}' });
    assert.equal(refused.statusCode, 400);
    const accepted = await post(answerUrl, cookie, {
      _csrf: csrfFrom(refused.body),
      input: '{"authorizationNumber": "A-100"}',
    });
    assert.equal(accepted.statusCode, 303);
    assert.equal((await v2.wf.result()).outcome, 'completed');

    // A v1 patient: the verification page, then a review decision.
    const v1 = await verificationNeedingReview(h, { tenant: TENANT });
    const v1Page = await get(`/verifications/${v1.workflowId}`, cookie);
    assert.equal(v1Page.statusCode, 200);
    const decided = await post(`/verifications/${v1.workflowId}/review`, cookie, {
      _csrf: csrfFrom(v1Page.body),
      action: 'abandon',
    });
    assert.equal(decided.statusCode, 303);
    assert.equal((await v1.wf.result()).outcome, 'abandoned');

    // A batch: cancelled while it is surely open, then its results downloaded.
    const batchId = batchIdFor('console-audit');
    await submitRequests(client(), h.taskQueue, batchId, [v2Intake(), v2Intake()], { tenant: TENANT });
    const batchPage = await get(`/batches/${batchId}`, cookie);
    const cancelled = await post(`/batches/${batchId}/cancel`, cookie, {
      _csrf: csrfFrom(batchPage.body),
      confirm: 'yes',
    });
    assert.equal(cancelled.statusCode, 303);
    const results = await get(`/batches/${batchId}/results.csv`, cookie);
    assert.equal(results.statusCode, 200);

    // Lists of identifiers and stages are no disclosure: no entry.
    for (const url of ['/awaiting-input', '/needs-review', '/batches', `/batches/${batchId}`]) {
      assert.equal((await get(url, cookie)).statusCode, 200, url);
    }
    const last = await get('/verifications', cookie);
    assert.equal((await post('/sign-out', cookie, { _csrf: csrfFrom(last.body) })).statusCode, 303);

    const entries = await trail.list();
    const alice = `operator:${console.operator.name}`;
    const read = (workflowId: string): Partial<AuditEvent> => ({
      actor: alice,
      action: 'verification.read',
      workflowId,
      tenant: TENANT,
      outcome: 'ok',
    });
    assert.deepEqual(
      entries.map((e) => ({
        actor: e.actor,
        action: e.action,
        ...(e.workflowId ? { workflowId: e.workflowId } : {}),
        ...(e.batchId ? { batchId: e.batchId } : {}),
        ...(e.tenant ? { tenant: e.tenant } : {}),
        outcome: e.outcome,
      })),
      [
        { actor: alice, action: 'operator.sign-in', outcome: 'denied' },
        { actor: 'operator:?', action: 'operator.sign-in', outcome: 'denied' },
        { actor: alice, action: 'operator.sign-in', outcome: 'ok' },
        read(v2.workflowId),
        read(v2.workflowId),
        { actor: alice, action: 'run.answer', workflowId: v2.workflowId, tenant: TENANT, outcome: 'refused' },
        read(v2.workflowId),
        { actor: alice, action: 'run.answer', workflowId: v2.workflowId, tenant: TENANT, outcome: 'ok' },
        read(v1.workflowId),
        { actor: alice, action: 'review.abandon', workflowId: v1.workflowId, tenant: TENANT, outcome: 'ok' },
        { actor: alice, action: 'batch.cancel', batchId, tenant: TENANT, outcome: 'ok' },
        { actor: alice, action: 'batch.results', batchId, tenant: TENANT, outcome: 'ok' },
        { actor: alice, action: 'operator.sign-out', outcome: 'ok' },
      ],
    );

    const of = (action: string, id: string) =>
      entries.filter((e) => e.action === action && (e.workflowId === id || e.batchId === id));
    for (const entry of of('verification.read', v2.workflowId)) {
      for (const field of ['patient.firstName', 'patient.lastName', 'patient.dateOfBirth', 'patient.memberId']) {
        assert.ok(entry.fields.includes(field), `${field} in ${entry.fields.join()}`);
      }
    }
    assert.deepEqual(of('verification.read', v1.workflowId)[0]?.fields, ['patientId', 'memberId']);
    assert.deepEqual(
      of('run.answer', v2.workflowId).map((e) => e.fields),
      [[], ['input.authorizationNumber']],
    );
    assert.ok(of('batch.results', batchId)[0]!.fields.every((f) => f === 'memberId'));
    assert.ok(entries.every((e) => e.source === '127.0.0.1'));

    // Names, never values: no patient datum, run input or password in any entry.
    const text = JSON.stringify(entries);
    const patient = v2Intake().patient;
    const v1Patient = v1Intake();
    for (const value of [
      patient.lastName,
      patient.dateOfBirth,
      patient.memberId,
      v1Patient.patientId,
      v1Patient.memberId,
      'A-100',
      console.operator.password,
    ]) {
      assert.ok(!text.includes(value), `an entry holds ${value}`);
    }
    assert.deepEqual(await trail.verify(), { ok: true, entries: entries.length });
  });

  it('sends no patient page whose entry could not be written', async () => {
    // A trail that takes sign-ins but fails on the page's entry, as a database gone away would.
    const failing = {
      append: (event: AuditEvent) =>
        event.action === 'verification.read' ? Promise.reject(new Error('database down')) : Promise.resolve(),
    } as unknown as AuditTrail;
    const other = await startTestConsole(client(), { audit: failing });
    try {
      const { wf, workflowId } = await verificationAwaitingInput(h);
      const cookie = await signIn(other);
      const res = await other.app.inject({ method: 'GET', url: `/runs/${workflowId}`, headers: { ...HTML, cookie } });
      assert.equal(res.statusCode, 500);
      assert.doesNotMatch(res.body, /Lovelace|12\/10\/1985|M1234567/);
      await wf.terminate('test over');
    } finally {
      await other.close();
    }
  });
});
