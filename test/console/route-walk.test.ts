import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { createConsole } from '../../apps/console/server.js';
import { OWNED } from '../../apps/console/route-rules.js';
import { OPERATOR_ROLES, OperatorDirectory } from '../../src/access/operators.js';
import { operatorEntry } from '../../src/access/operator-passwords.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { validateSubmission } from '../../src/batches/prepare.js';
import { submitBatch } from '../../src/batches/submit.js';
import { loadConfig } from '../../src/config.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import { createLogger } from '../../src/logging.js';
import type { Store } from '../../src/store/database.js';
import { batchWorkflowId } from '../../workflows/batch/batch.js';
import { patientWorkflowId } from '../../workflows/shared/ids.js';
import { Tenant } from '../../workflows/shared/search-attributes.js';
import { FAST_BATCH } from '../../testing/batches.js';
import { testCodecKeys } from '../../testing/codec.js';
import {
  csrfFrom,
  getPage,
  postForm,
  signInAs,
  startTestConsole,
  type TestConsole,
} from '../../testing/console-app.js';
import { testStore } from '../../testing/database.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { hex, probeObjectRoutes, sameApartFromIds, sharedKinds, walkRoutes } from '../access/route-walk.js';

/** A console over a Temporal server it never calls: its routes only, every optional page included (OIDC). */
async function consoleApp() {
  const config = loadConfig('console', {
    LOG_LEVEL: 'silent',
    CONSOLE_OPERATORS: await operatorEntry('alice', randomBytes(12).toString('base64url')),
    CONSOLE_SESSION_SECRET: randomBytes(32).toString('hex'),
    OIDC_ISSUER: 'https://idp.example',
    OIDC_CLIENT_ID: 'console',
  });
  const connection = Connection.lazy({ address: '127.0.0.1:1' });
  const app = createConsole({ config, client: new Client({ connection }), logger: createLogger(config) });
  return { app, close: () => Promise.all([app.close(), connection.close()]) };
}

/**
 * Every route of the console declares the role it needs, the object it owns and its audit action (decision 75): a
 * page added without them cannot slip past its tenant check or its audit entry.
 */
describe('console: every route declares its access, what it owns and what it audits', () => {
  it('walks every registered route and finds each declared', async () => {
    const { app, close } = await consoleApp();
    try {
      await app.ready();
      walkRoutes(app, {
        knows: (access) => 'role' in access && OPERATOR_ROLES.includes(access.role),
        owned: OWNED,
        ownerOf: { workflowId: 'workflow', batchId: 'batch', patientId: 'patient', changeId: 'coverage-change' },
        open: [
          'GET /healthz',
          'GET /readyz',
          'GET /metrics',
          'GET /assets/*',
          'GET /favicon.ico',
          'GET /sign-in',
          'POST /sign-in',
          'GET /sign-in/oidc',
          'GET /sign-in/oidc/callback',
        ],
      });
    } finally {
      await close();
    }
  });

  it('refuses to start with a route that declares none of them, naming it', async () => {
    const { app, close } = await consoleApp();
    try {
      assert.throws(
        () => app.get('/undeclared', (_request, reply) => reply.send('')),
        /route GET \/undeclared declares no access/,
      );
    } finally {
      await close();
    }
  });
});

/**
 * Every refusal on record (issue 61, decision 84): an administrator of tenant B tries tenant A's ids on every page and
 * form that names an object, and ids that exist nowhere; a viewer's refused Temporal UI pass is recorded too. Tenant
 * A's objects are started on the run's Temporal server with no worker: the wall only describes them.
 */
describe('console: every refused access is one audit entry, with the object’s tenant', function () {
  this.timeout(60_000);
  let store: Store;
  let trail: AuditTrail;
  let console: TestConsole;
  const started: WorkflowHandle[] = [];
  const theirs = { workflowId: '', batchId: '', patientId: '', endpointId: '' };
  const people = {
    bea: { name: 'bea', password: `bea-${randomUUID()}` },
    vi: { name: 'vi', password: `vi-${randomUUID()}` },
  };
  const cookies: Record<string, string> = {};

  before(async () => {
    store = await testStore();
    trail = new AuditTrail(store);
    const directory = new OperatorDirectory(store);
    await directory.create({ ...people.bea, role: 'admin', tenants: ['clinic-b'], by: 'test' });
    await directory.create({ ...people.vi, role: 'viewer', tenants: ['clinic-a'], by: 'test' });
    const events = eventServices(store, new SecretBox(testCodecKeys()));
    const { client } = testTemporal();
    const nobody = `probe-${randomUUID()}`;
    const tenantA = [{ key: Tenant, value: 'clinic-a' }];
    theirs.workflowId = `verification-probe-${randomUUID()}`;
    started.push(
      await client.workflow.start('verificationWorkflow', {
        workflowId: theirs.workflowId,
        taskQueue: nobody,
        args: [v2Intake()],
        typedSearchAttributes: tenantA,
      }),
    );
    theirs.patientId = `pt_${hex(16)}`;
    started.push(
      await client.workflow.start('patientWorkflow', {
        workflowId: patientWorkflowId(theirs.patientId),
        taskQueue: nobody,
        args: [{}],
        typedSearchAttributes: tenantA,
      }),
    );
    theirs.batchId = `probe-${randomUUID().slice(0, 8)}`;
    const { valid, invalid } = validateSubmission([{ row: 1, request: v2Intake() }], { sandbox: false });
    await submitBatch(
      client,
      {
        batchId: theirs.batchId,
        valid,
        invalid,
        options: { retryWindowSeconds: 3600, timing: FAST, tenant: 'clinic-a' },
      },
      { taskQueue: nobody, timing: FAST_BATCH },
    );
    started.push(client.workflow.getHandle(batchWorkflowId(theirs.batchId)));
    theirs.endpointId = (
      await events.endpoints.create({
        tenant: 'clinic-a',
        url: 'https://a.example/hooks',
        events: ['verification.completed'],
      })
    ).endpoint.id;
    console = await startTestConsole(client, {
      audit: trail,
      directory,
      events,
      env: { CODEC_TOKEN_SECRET: randomBytes(32).toString('hex'), CODEC_SERVER_URL: 'http://127.0.0.1:1' },
    });
    cookies.bea = await signInAs(console, people.bea);
    cookies.vi = await signInAs(console, people.vi);
  });
  after(async () => {
    await Promise.all(started.map((handle) => handle.terminate('test over').catch(() => undefined)));
    await console?.close();
    await store?.close();
  });

  const entriesOf = (name: string) => trail.list({ actor: `operator:${name}`, limit: 10_000 });
  /** The page without what changes on every request: its CSRF token. */
  const stable = (page: string) => page.replace(/name="_csrf" value="[^"]+"/g, '');

  it("tries tenant A's ids on every page and form that names an object: each the 404 of a missing one, each one entry", async () => {
    const csrf = csrfFrom((await getPage(console, '/verifications', cookies.bea!)).body);
    const probed = await probeObjectRoutes(console.app, {
      tenant: 'clinic-a',
      kinds: {
        ...sharedKinds(theirs),
        endpoint: {
          theirs: { id: theirs.endpointId },
          missing: { id: `ep_${hex(8)}` },
          recorded: (p) => ({ actionEnds: p.id! }),
        },
        // Every tenant has a schedule; a path naming no tenant is the missing one.
        schedule: { theirs: { tenant: 'clinic-a' }, missing: { tenant: 'no tenant' }, recorded: () => ({}) },
      },
      otherParams: { flowRunId: 'run-1', format: 'csv', act: 'pause' },
      bodies: { 'POST /verifications/:workflowId/review': { action: 'abandon' } },
      send: (method, url, body) =>
        method === 'GET'
          ? getPage(console, url, cookies.bea!)
          : postForm(console, url, cookies.bea!, { _csrf: csrf, ...(body as Record<string, string>) }),
      entries: () => entriesOf('bea'),
      sameAnswer: sameApartFromIds(stable),
    });
    assert.equal(probed.length, 19, probed.join('\n'));
  });

  it("records a viewer's refused action with the object's tenant, and a viewer's refused Temporal UI pass", async () => {
    const csrf = csrfFrom((await getPage(console, '/verifications', cookies.vi!)).body);
    const cancel = await postForm(console, `/batches/${theirs.batchId}/cancel`, cookies.vi!, { _csrf: csrf });
    assert.equal(cancel.statusCode, 403);
    const pass = await postForm(console, '/temporal-ui/pass', cookies.vi!, { _csrf: csrf });
    assert.equal(pass.statusCode, 403);
    const [refusedCancel, refusedPass] = (await entriesOf('vi')).slice(-2);
    assert.deepEqual(
      [refusedCancel?.action, refusedCancel?.outcome, refusedCancel?.tenant, refusedCancel?.batchId],
      ['batch.cancel', 'denied', 'clinic-a', theirs.batchId],
    );
    assert.deepEqual([refusedPass?.action, refusedPass?.outcome], ['codec.pass', 'denied']);
  });

  it("records an administrators' page refused to someone else, answered as a page that does not exist", async () => {
    const hidden = await getPage(console, `/event-endpoints/${theirs.endpointId}/rotate`, cookies.vi!);
    const nowhere = await getPage(console, '/no-such-page', cookies.vi!);
    assert.equal(hidden.statusCode, 404);
    assert.equal(hidden.body, nowhere.body);
    const entry = (await entriesOf('vi')).at(-1);
    assert.deepEqual(
      [entry?.action, entry?.outcome, entry?.tenant],
      [`event-endpoint.read:${theirs.endpointId}`, 'denied', null],
    );
  });
});
