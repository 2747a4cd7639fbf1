import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { OperatorDirectory, type OperatorRole } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { createConsole, requireConsoleSecrets } from '../../apps/console/server.js';
import { cancelBatch } from '../../src/batches/actions.js';
import { describeBatch } from '../../src/batches/describe.js';
import { validateSubmission } from '../../src/batches/prepare.js';
import { submitBatch } from '../../src/batches/submit.js';
import type { Store } from '../../src/store/database.js';
import { batchWorkflowId } from '../../workflows/batch/batch.js';
import { statusQuery } from '../../workflows/verification/verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { batchIdFor, FAST_BATCH, waitForBatch } from '../../testing/batches.js';
import { testStore } from '../../testing/database.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { DISCOVERY_PATIENT, pendingDiscovery } from '../../testing/sandbox.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import {
  csrfFrom,
  signIn,
  signInAs,
  startTestConsole,
  getPage,
  postForm,
  type TestConsole,
} from '../../testing/console-app.js';
import {
  verificationAwaitingInput as awaitingInput,
  verificationNeedingReview as needingReview,
} from '../../testing/waiting-verifications.js';
import { boundedTeardown } from '../../testing/bounded-teardown.js';

const HTML = { accept: 'text/html' };
const A = 'clinic-a';
const B = 'clinic-b';

type VerificationHandle = WorkflowHandle<typeof verificationWorkflow>;
interface Person {
  name: string;
  password: string;
}

// Roles and tenants in the console (docs/operating/console.md) against the real stack: the run's dev server, a worker,
// the sandbox and a database of its own holding the operator directory and the audit trail.
describe('operator console roles and tenants', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let store: Store;
  let trail: AuditTrail;
  let directory: OperatorDirectory;
  let console: TestConsole;
  const client = () => testTemporal().client;
  const cleanup: (() => Promise<unknown>)[] = [];

  const person = (name: string): Person => ({ name, password: `${name}-${randomUUID()}` });
  /** An operator of tenant A, a viewer of tenant B, an operator of every tenant (disabled in a test). */
  const ana = person('ana');
  const vic = person('vic');
  const dora = person('dora');

  // The objects of the suite, made once in `before`.
  let a: { wf: VerificationHandle; workflowId: string; flowRunId: string };
  let b: { wf: VerificationHandle; workflowId: string; flowRunId: string };
  let untenanted: { wf: VerificationHandle; workflowId: string; flowRunId: string };
  let bReview: { wf: VerificationHandle; workflowId: string };
  let aBatch: string;
  let bBatch: string;

  const get = (url: string, cookie: string) => getPage(console, url, cookie);
  const post = (url: string, cookie: string, form: Record<string, string>) => postForm(console, url, cookie, form);
  /** A CSRF token of the session, from a page without patient data. */
  const csrfOf = async (cookie: string) => csrfFrom((await get('/verifications', cookie)).body);

  async function create(who: Person, role: OperatorRole, tenants: string[] | null) {
    await directory.create({ ...who, role, tenants, by: 'test' });
  }

  /** A verification of `tenant` whose run awaits input, terminated when the suite ends. */
  async function verificationAwaitingInput(tenant: string | undefined) {
    const waiting = await awaitingInput(h, tenant ? { tenant } : {});
    cleanup.push(() => waiting.wf.terminate('test over'));
    return waiting;
  }

  /** A v1 creation of `tenant` whose response was lost, terminated when the suite ends. */
  async function verificationNeedingReview(tenant: string) {
    const waiting = await needingReview(h, { tenant });
    cleanup.push(() => waiting.wf.terminate('test over'));
    return waiting;
  }

  /** A batch of `tenant`, as the intake API submits one for a client of that tenant. */
  async function batchOf(tenant: string, requests: readonly unknown[]) {
    const batchId = batchIdFor(`console-${tenant}`);
    const { valid, invalid } = validateSubmission(
      requests.map((request, i) => ({ row: i + 1, request })),
      { sandbox: false },
    );
    await submitBatch(
      client(),
      { batchId, valid, invalid, options: { retryWindowSeconds: 3600, timing: FAST, tenant } },
      { taskQueue: h.taskQueue, timing: FAST_BATCH },
    );
    cleanup.push(() => cancelBatch(client(), batchId));
    return batchId;
  }

  /** A batch whose one item waits for a discovery that never completes: it stays open. */
  async function openBatch(tenant: string) {
    const discovery = await pendingDiscovery(h.sandbox);
    const batchId = await batchOf(tenant, [v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId })]);
    await waitForBatch(client(), batchId, (v) => v.counts.running['awaiting-discovery'] === 1);
    return batchId;
  }

  before(async () => {
    [h, store] = await Promise.all([startWorkflowHarness(), testStore()]);
    trail = new AuditTrail(store);
    directory = new OperatorDirectory(store);
    await create(ana, 'operator', [A]);
    await create(vic, 'viewer', [B]);
    await create(dora, 'operator', null);
    console = await startTestConsole(client(), { audit: trail, directory });
    a = await verificationAwaitingInput(A);
    b = await verificationAwaitingInput(B);
    untenanted = await verificationAwaitingInput(undefined);
    bReview = await verificationNeedingReview(B);
    aBatch = await openBatch(A);
    bBatch = await openBatch(B);
  });
  after(async function () {
    // Each step bounded: this hook once waited over a minute in a clean clone's `npm test`, with no step named. Its
    // own timeout is above the bounds' sum (15 + 5 + 20 + 10 + 10 s), so a slow step is a warning that names it.
    this.timeout(90_000);
    const cancels = Promise.all(cleanup.map((fn) => fn().catch(() => undefined)));
    await boundedTeardown("the cancels of the suite's batches", cancels, 15_000);
    if (console) await boundedTeardown('the console close', console.close(), 5_000);
    await h?.stop();
    if (store) await boundedTeardown('the store close', store.close(), 10_000);
  });

  /** What B's objects are now: nothing of it may change through tenant A's operator or a viewer. */
  async function stateOfB() {
    const [run, review, batch] = await Promise.all([
      b.wf.query(statusQuery),
      bReview.wf.query(statusQuery),
      describeBatch(client(), bBatch),
    ]);
    return {
      pendingRuns: run.pendingRuns,
      runs: run.runs.map((r) => r.state),
      review: review.stage,
      batch: { state: batch?.state, round: batch?.round, status: batch?.status },
    };
  }

  const workflowIds = (body: string) => [...body.matchAll(/href="\/verifications\/([^"]+)"/g)].map((m) => m[1]);

  it("answers an operator of tenant A on tenant B's objects exactly as on objects that do not exist, and does nothing", async () => {
    const cookie = await signInAs(console, ana);
    // Their own tenant's objects they see.
    assert.equal((await get(`/verifications/${a.workflowId}`, cookie)).statusCode, 200);
    assert.equal((await get(`/batches/${aBatch}`, cookie)).statusCode, 200);

    const before = await stateOfB();
    const entriesBefore = (await trail.list()).length;
    const csrf = await csrfOf(cookie);
    const missingWorkflow = `verification-missing-${randomUUID()}`;
    const missingBatch = batchIdFor('missing');
    const input = JSON.stringify({ authorizationNumber: 'A-1' });
    const attempts: [string, 'GET' | 'POST', (id: string) => string, string, string, Record<string, string>?][] = [
      ['verification page', 'GET', (id) => `/verifications/${id}`, b.workflowId, missingWorkflow],
      ['verification page, no tenant', 'GET', (id) => `/verifications/${id}`, untenanted.workflowId, missingWorkflow],
      ['answer page', 'GET', (id) => `/runs/${id}`, b.workflowId, missingWorkflow],
      ['run input', 'POST', (id) => `/runs/${id}/${b.flowRunId}`, b.workflowId, missingWorkflow, { input }],
      [
        'run input, no tenant',
        'POST',
        (id) => `/runs/${id}/${untenanted.flowRunId}`,
        untenanted.workflowId,
        missingWorkflow,
        { input },
      ],
      [
        'review decision',
        'POST',
        (id) => `/verifications/${id}/review`,
        bReview.workflowId,
        missingWorkflow,
        { action: 'abandon' },
      ],
      ['search', 'POST', () => '/verifications', b.workflowId, missingWorkflow, { q: '{id}' }],
      ['batch page', 'GET', (id) => `/batches/${id}`, bBatch, missingBatch],
      ['results download', 'GET', (id) => `/batches/${id}/results.csv`, bBatch, missingBatch],
      ['batch resubmit', 'POST', (id) => `/batches/${id}/resubmit`, bBatch, missingBatch, {}],
      ['batch cancel', 'POST', (id) => `/batches/${id}/cancel`, bBatch, missingBatch, { confirm: 'yes' }],
      ['batch search', 'POST', () => '/verifications', `batch-${bBatch}`, `batch-${missingBatch}`, { q: '{id}' }],
    ];
    /** The answer with the object's id and the page's CSRF token (new on every page) taken out. */
    const answer = async (method: 'GET' | 'POST', url: string, id: string, form?: Record<string, string>) => {
      const fields = Object.fromEntries(Object.entries(form ?? {}).map(([k, v]) => [k, v.replace('{id}', id)]));
      const res = method === 'GET' ? await get(url, cookie) : await post(url, cookie, { _csrf: csrf, ...fields });
      const body = res.body
        .replaceAll(id, '{id}')
        .replaceAll(id.replace(/^batch-/, ''), '{id}')
        .replace(/name="_csrf" value="[^"]*"/g, 'name="_csrf" value=""');
      return { status: res.statusCode, body, location: res.headers.location };
    };
    let count = 0;
    for (const [name, method, url, id, missing, form] of attempts) {
      const theirs = await answer(method, url(id), id, form);
      const none = await answer(method, url(missing), missing, form);
      assert.deepEqual(theirs, none, name);
      assert.equal(theirs.status, 404, name);
      count += 1;
    }
    assert.equal(count, 12);

    // Nothing changed, and nothing of B's was disclosed: each attempt is one refusal on record (decision 84), B's
    // objects `denied` with their tenant, the missing ones (and the searches) `not-found`.
    assert.deepEqual(await stateOfB(), before);
    const entries = (await trail.list()).slice(entriesBefore);
    assert.equal(entries.length, 2 * count);
    assert.deepEqual(
      entries.filter((e) => e.outcome !== 'denied' && e.outcome !== 'not-found'),
      [],
      'no disclosure and no change was recorded',
    );
    const ofB = entries.filter((e) => e.batchId === bBatch || e.workflowId === b.workflowId);
    assert.deepEqual(new Set(ofB.map((e) => `${e.outcome} ${e.tenant}`)), new Set(['denied clinic-b']));
    assert.equal(ofB.length, 7);

    // A's lists show A's objects and none of B's (nor those without a tenant).
    const queue = await eventually(async () => {
      const page = await get('/awaiting-input', cookie);
      return workflowIds(page.body).includes(a.workflowId) ? page.body : undefined;
    });
    assert.ok(!workflowIds(queue).includes(b.workflowId));
    assert.ok(!workflowIds(queue).includes(untenanted.workflowId));
    const review = await get('/needs-review', cookie);
    assert.ok(!review.body.includes(bReview.workflowId));
    const batches = await eventually(async () => {
      const page = await get('/batches', cookie);
      return page.body.includes(aBatch) ? page.body : undefined;
    });
    assert.ok(!batches.includes(bBatch));
  });

  it('shows a viewer masked patient data and no actions, and refuses their posts (403, recorded as denied)', async () => {
    const cookie = await signInAs(console, vic);
    const patient = v2Intake().patient;
    for (const url of [`/verifications/${b.workflowId}`, `/runs/${b.workflowId}`]) {
      const page = await get(url, cookie);
      assert.equal(page.statusCode, 200, url);
      assert.match(page.body, /Ada Lovelace/);
      assert.match(page.body, /••••4567/, 'the member id by its last four');
      assert.match(page.body, /<dd>1985<\/dd>/, 'the year of birth');
      for (const value of [patient.memberId, patient.dateOfBirth, '12/10']) {
        assert.ok(!page.body.includes(value), `${url} shows ${value}`);
      }
      assert.doesNotMatch(page.body, /<form method="post" action="\/runs\//, 'no answer form');
      assert.match(page.body, /Signed in as <strong>vic<\/strong> \(viewer\)/);
    }
    const reviewPage = await get(`/verifications/${bReview.workflowId}`, cookie);
    assert.doesNotMatch(reviewPage.body, /\/review"/, 'no review decision');
    assert.doesNotMatch(reviewPage.body, /M7654321/, 'a v1 member id is masked too');
    assert.match(reviewPage.body, /••••4321/);
    const batchPage = await get(`/batches/${bBatch}`, cookie);
    assert.equal(batchPage.statusCode, 200);
    assert.doesNotMatch(batchPage.body, /\/cancel"|\/resubmit"/, 'no batch action');
    assert.match(batchPage.body, /results\.csv/, 'downloads stay');
    const needsReview = await eventually(async () => {
      const page = await get('/needs-review', cookie);
      return page.body.includes(bReview.workflowId) ? page.body : undefined;
    });
    assert.doesNotMatch(needsReview, /\/review"/, 'no decision in the queue');

    const before = await stateOfB();
    const csrf = await csrfOf(cookie);
    const refused: [string, string, Record<string, string>, RegExp][] = [
      [
        `/runs/${b.workflowId}/${b.flowRunId}`,
        'run.answer',
        { input: '{"authorizationNumber": "A-100"}' },
        /answer runs/,
      ],
      [`/verifications/${bReview.workflowId}/review`, 'review.abandon', { action: 'abandon' }, /decide reviews/],
      [`/batches/${bBatch}/cancel`, 'batch.cancel', { confirm: 'yes' }, /cancel batches/],
      [`/batches/${bBatch}/resubmit`, 'batch.resubmit', {}, /resubmit batches/],
    ];
    for (const [url, action, form, what] of refused) {
      const res = await post(url, cookie, { _csrf: csrf, ...form });
      assert.equal(res.statusCode, 403, url);
      assert.match(res.body, /Your role \(viewer\) cannot/);
      assert.match(res.body, what);
      const [entry] = await trail.list({ actor: 'operator:vic', action });
      assert.equal(entry?.outcome, 'denied', action);
    }
    assert.deepEqual(await stateOfB(), before, 'nothing was done');

    // The masked fields are still named as disclosed.
    const reads = await trail.list({ actor: 'operator:vic', action: 'verification.read', workflowId: b.workflowId });
    assert.ok(reads.length >= 2);
    for (const read of reads) {
      assert.ok(read.fields.includes('patient.memberId') && read.fields.includes('patient.dateOfBirth'));
    }
  });

  it("masks the member ids of a viewer's results download, not an administrator's", async () => {
    const discovery = await h.sandbox.createDiscovery({ ...DISCOVERY_PATIENT, delayMs: 0 });
    const batchId = await batchOf(B, [v2Intake({ payerId: undefined, discoveryId: discovery.discoveryId })]);
    await waitForBatch(client(), batchId);
    const full = await get(`/batches/${batchId}/results.csv`, await signIn(console));
    assert.equal(full.statusCode, 200);
    const memberId = /\bW\d{9}\b/.exec(full.body)?.[0];
    assert.ok(memberId, full.body);
    const masked = await get(`/batches/${batchId}/results.csv`, await signInAs(console, vic));
    assert.equal(masked.statusCode, 200);
    assert.ok(!masked.body.includes(memberId), masked.body);
    assert.ok(masked.body.includes(`••••${memberId.slice(-4)}`), masked.body);
    const [entry] = await trail.list({ actor: 'operator:vic', action: 'batch.results', batchId });
    assert.deepEqual(entry?.fields, ['memberId']);
  });

  it("takes a changed role at the next request, and ends a disabled operator's session", async () => {
    const cookie = await signInAs(console, dora);
    const page = await get('/awaiting-input', cookie);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /\(operator\)/);
    await directory.update(dora.name, { role: 'viewer' });
    const asViewer = await post(`/batches/${bBatch}/cancel`, cookie, { _csrf: csrfFrom(page.body), confirm: 'yes' });
    assert.equal(asViewer.statusCode, 403);
    assert.equal((await describeBatch(client(), bBatch))?.state, 'running', 'not cancelled');

    await directory.disable(dora.name);
    const gone = await get('/awaiting-input', cookie);
    assert.equal(gone.statusCode, 303);
    assert.equal(gone.headers.location, `/sign-in?next=${encodeURIComponent('/awaiting-input')}`);
    assert.equal((await get('/batches', cookie)).statusCode, 303, 'the session stays ended');
    assert.equal((await console.app.inject({ method: 'GET', url: '/batches', headers: { cookie } })).statusCode, 401);
    await assert.rejects(signInAs(console, dora), /sign-in answered 401/);
  });

  it('still signs in a CONSOLE_OPERATORS operator, who sees every tenant and objects without one', async () => {
    const cookie = await signIn(console);
    for (const workflowId of [a.workflowId, b.workflowId, untenanted.workflowId]) {
      const page = await get(`/verifications/${workflowId}`, cookie);
      assert.equal(page.statusCode, 200, workflowId);
      assert.match(page.body, /M1234567/, 'an administrator sees the member id');
    }
    assert.match((await get(`/verifications/${bReview.workflowId}`, cookie)).body, /\/review"/);
    const queue = await eventually(async () => {
      const body = (await get('/awaiting-input', cookie)).body;
      const ids = workflowIds(body);
      return [a, b, untenanted].every((v) => ids.includes(v.workflowId)) ? body : undefined;
    });
    assert.match(queue, /\(admin\)/);
    await eventually(async () => {
      const body = (await get('/batches', cookie)).body;
      return body.includes(aBatch) && body.includes(bBatch) ? true : undefined;
    });
    const batchPage = await get(`/batches/${bBatch}`, cookie);
    assert.match(batchPage.body, /\/cancel"/);
    assert.equal((await client().workflow.getHandle(batchWorkflowId(bBatch)).describe()).status.name, 'RUNNING');
  });

  it('starts with the directory alone (no CONSOLE_OPERATORS), and refuses to start with neither', async () => {
    const config = loadConfig('console', { CONSOLE_SESSION_SECRET: randomUUID() + randomUUID(), LOG_LEVEL: 'silent' });
    assert.throws(
      () => requireConsoleSecrets(config.console),
      (err: unknown) =>
        err instanceof ConfigError && err.problems.map((p) => p.variable).join() === 'CONSOLE_OPERATORS',
    );
    const app = createConsole({ config, client: client(), logger: createLogger(config), directory });
    try {
      await app.ready();
      const cookie = await signInAs({ ...console, app }, ana);
      const page = await app.inject({ method: 'GET', url: '/awaiting-input', headers: { ...HTML, cookie } });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Signed in as <strong>ana<\/strong> \(operator\)/);
    } finally {
      await app.close();
    }
  });
});
