import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import type { Store } from '../../src/store/database.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { statusQuery } from '../../workflows/verification/verification.js';
import { batchIdFor, submitRequests } from '../../testing/batches.js';
import { testCodecKeys } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { FAST, v1Intake, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { axeViolations, launchChromium, signInAt } from '../../testing/browser.js';
import { startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { verificationAwaitingInput } from '../../testing/waiting-verifications.js';

// The console in Chromium against the real stack: the run's dev server, a worker and the sandbox.
describe('operator console in a browser', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let console: TestConsole;
  let store: Store;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const client = () => testTemporal().client;
  /** The tenant of the endpoint added here. */
  const eventTenant = `browser-${Date.now().toString(36)}`;

  before(async () => {
    [h, store] = await Promise.all([startWorkflowHarness(), testStore()]);
    // With a database of its own, so that the administrators' pages have something to manage.
    console = await startTestConsole(client(), {
      events: eventServices(store, new SecretBox(testCodecKeys())),
      listen: true,
      audit: new AuditTrail(store),
      directory: new OperatorDirectory(store),
      clients: new IntakeClients(store),
      env: { CODEC_TOKEN_SECRET: 'a-pass-secret-of-at-least-32-characters' },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await console?.close();
    await h?.stop();
    await store?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ acceptDownloads: true });
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const signIn = () => signInAt(page, `${console.url}/awaiting-input`, console.operator);

  async function assertAccessible(what: string) {
    const violations = await axeViolations(page);
    assert.deepEqual(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      [],
      `accessibility violations on ${what}`,
    );
  }

  it('shows a signed-out visitor nothing but the sign-in form', async () => {
    for (const path of [
      '/awaiting-input',
      '/batches',
      '/needs-review',
      '/verifications/verification-x',
      '/temporal-ui',
    ]) {
      await page.goto(`${console.url}${path}`);
      assert.match(page.url(), /\/sign-in\?next=/, path);
      assert.equal(await page.locator('nav').count(), 0, `${path}: no navigation before sign-in`);
      assert.equal(await page.locator('h1').textContent(), 'Sign in');
    }
    await assertAccessible('the sign-in page');
  });

  it('answers a run: invalid input is refused inline naming the field, valid input completes the verification', async () => {
    const { wf, workflowId, flowRunId } = await verificationAwaitingInput(h, { untilPending: false });
    await signIn();
    // Visibility shows the new stage a moment after the workflow set it.
    const row = page.locator('tr', { has: page.getByRole('link', { name: workflowId, exact: true }) });
    await eventually(async () => ((await row.count()) > 0 ? true : (await page.reload(), undefined)), 10_000);
    await assertAccessible('the awaiting-input queue');
    await row.getByRole('link', { name: 'Answer' }).click();
    await page.waitForURL(/\/runs\//);
    // The decrypted patient, to the signed-in operator only.
    assert.match(await page.locator('main').innerText(), /Ada Lovelace/);
    assert.doesNotMatch(page.url(), /Ada|Lovelace/);
    const asks = await page.locator(`[id="input-${flowRunId}-asks"]`).innerText();
    assert.match(
      asks,
      /What it asks for: The prior authorization number of the ABA therapy.*Fields: authorizationNumber/s,
    );

    // The form asks for the run's field; the whole input as JSON is the advanced way.
    await page.getByText('Advanced: send the input as JSON').click();
    const input = page.getByLabel('The whole input as JSON');
    await input.fill('{"note": ');
    await page.getByText(/Not valid JSON yet/).waitFor();
    assert.equal(await input.getAttribute('aria-invalid'), 'true', 'checked as it is typed');
    await assertAccessible('the answer page');

    // Valid JSON the service refuses: an empty object has nothing to patch (the sandbox's 400 names `input`).
    await input.fill('{}');
    await page.getByText('An empty object: it gives the run no values.').waitFor();
    await page.getByRole('button', { name: 'Send the input' }).click();
    const refusal = page.locator(`[id="input-${flowRunId}-error"]`);
    await refusal.getByText(/The service did not accept this input/).waitFor();
    assert.doesNotMatch(await refusal.innerText(), /invalid_request_error|400/);
    assert.equal((await wf.query(statusQuery)).pendingRuns.length, 1, 'the run still awaits input');

    await page.getByLabel('The whole input as JSON').fill('');
    await page.getByLabel(/Authorization number/).fill('A-100');
    await page.getByRole('button', { name: 'Send the input' }).click();
    await page
      .getByRole('status')
      .getByText(/answered: the service took the input \(the run is now created\)/)
      .waitFor();
    assert.match(await page.getByRole('status').innerText(), new RegExp(`console:${console.operator.name}`));
    assert.match(await page.locator('main').innerText(), new RegExp(`answered by console:${console.operator.name}`));

    assert.equal((await wf.result()).outcome, 'completed');
    await page.goto(`${console.url}/verifications/${workflowId}`);
    const main = page.locator('main');
    await main.getByText('Completed', { exact: true }).first().waitFor();
    const timeline = await page.locator('.timeline').innerText();
    const sender = `console:${console.operator.name}`;
    assert.match(timeline, new RegExp(`input sent \\(run ${flowRunId}\\) by ${sender}`));
    assert.match(timeline, /finished/);
    assert.doesNotMatch(timeline, /supplyRunInput|update|settled/);
    await assertAccessible('the verification page');
  });

  it('follows a batch to its end and downloads its results', async () => {
    const batchId = batchIdFor('console');
    await submitRequests(client(), h.taskQueue, batchId, [v2Intake(), v2Intake(), v2Intake()]);
    await signIn();
    await page.getByRole('link', { name: 'Batches' }).click();
    await page.getByRole('link', { name: batchId }).click();
    await assertAccessible('the batch page');
    // The page refreshes itself until the batch has settled (nothing more on its way); the test only waits.
    const ended = ['settled', 'finished', 'closed'].map((s) => `[data-batch-state="${s}"]`).join(', ');
    await page.locator(ended).waitFor({ timeout: 30_000 });
    const legend = await page.locator('.legend').innerText();
    assert.match(legend, /completed\s*3/);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download results (CSV)' }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `batch-${batchId}-results.csv`);
    const csv = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(csv[0]?.split(',')[0], 'row');
    assert.equal(csv.length, 4, 'a header and three rows');
    await page.getByRole('link', { name: 'Batches' }).click();
    await assertAccessible('the batches page');
  });

  it('lists a v1 verification needing review with its three decisions, and abandons it', async () => {
    // A lost response to a v1 creation: the outcome is unknown and a person decides.
    await h.sandbox.setFaults({ dropResponses: 1 });
    const { workflowId } = await startVerification(client(), v1Intake(), { taskQueue: h.taskQueue, timing: FAST });
    const wf = client().workflow.getHandle<typeof verificationWorkflow>(workflowId);
    await eventually(async () => ((await wf.query(statusQuery)).stage === 'needs-review' ? true : undefined));
    await signIn();
    await page.getByRole('link', { name: 'Needs review' }).click();
    const row = page.locator('tr', { has: page.getByRole('link', { name: workflowId, exact: true }) });
    await eventually(async () => ((await row.count()) > 0 ? true : (await page.reload(), undefined)), 10_000);
    for (const name of ['Record', 'Retry', 'Abandon']) await row.getByRole('button', { name }).waitFor();
    await assertAccessible('the needs-review page');
    await row.getByRole('button', { name: 'Abandon' }).click();
    await page
      .getByRole('status')
      .getByText(/abandoned/)
      .waitFor();
    assert.equal((await wf.result()).outcome, 'abandoned');
    assert.match(await page.locator('.timeline').innerText(), /review decided by console:alice/);
  });

  it('makes an intake client and an operator on the administrators’ pages, each page accessible', async () => {
    await signIn();
    await page.getByRole('link', { name: 'Intake clients' }).click();
    await page.waitForURL(/\/admin\/clients$/);
    await assertAccessible('the intake clients page');
    await page.getByLabel('Name').fill('Clinic A PMS');
    await page.getByLabel('Tenant', { exact: true }).fill('clinic-a');
    await page.getByLabel('verifications:read').check();
    await page.getByRole('button', { name: 'Make the client' }).click();
    await page.getByText(/shown only this once/).waitFor();
    await assertAccessible('the page showing a new key');
    await page.getByRole('link', { name: 'Back to the intake clients' }).click();
    await page.getByRole('link', { name: 'Revoke Clinic A PMS' }).click();
    await assertAccessible('the revocation confirmation');

    await page.getByRole('link', { name: 'Operators' }).click();
    await assertAccessible('the operators page');
    await page.getByLabel('Name').fill('nia');
    await page.getByLabel('Tenants', { exact: true }).fill('clinic-a');
    await page.getByLabel('Password', { exact: true }).fill('a long passphrase');
    await page.getByLabel('Password, again').fill('a long passphrase');
    await page.getByRole('button', { name: 'Add the operator' }).click();
    await page
      .getByRole('status')
      .getByText(/nia \(operator, clinic-a\) can sign in/)
      .waitFor();
    await page.getByRole('link', { name: 'Change nia' }).click();
    await assertAccessible("an operator's page");

    await page.getByRole('link', { name: 'Audit trail' }).click();
    await assertAccessible('the audit trail page');
    await page.getByRole('button', { name: 'Verify the chain' }).click();
    await page.getByText(/The chain holds/).waitFor();
    await assertAccessible('the verification of the chain');
  });

  it('adds an event endpoint on the event endpoints page, each page accessible', async () => {
    await signIn();
    await page.getByRole('link', { name: 'Event endpoints' }).click();
    await page.waitForURL(/\/event-endpoints$/);
    await assertAccessible('the event endpoints page');
    await page.getByRole('link', { name: 'Add an endpoint' }).click();
    await assertAccessible('the form adding an endpoint');
    await page.getByLabel('URL').fill('https://pms.example/hooks');
    await page.getByLabel(/verification\.completed/).check();
    await page.getByLabel('Tenant', { exact: true }).fill(eventTenant);
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByText(/shown only this once/).waitFor();
    await assertAccessible('the page showing a signing secret');
    await page.getByRole('link', { name: 'Back to the endpoint' }).click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await assertAccessible("an endpoint's page");
  });

  it('makes a pass to the codec server on the Temporal UI page, each page accessible', async () => {
    await signIn();
    await page.getByRole('link', { name: 'Temporal UI' }).click();
    await page.waitForURL(/\/temporal-ui$/);
    await assertAccessible('the Temporal UI page');
    await page.getByRole('button', { name: 'Make my pass' }).click();
    const endpoint = await page.getByLabel('Codec server endpoint').inputValue();
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:8888\/p\/[\w-]+\.[\w-]+\.[\w-]+$/);
    await assertAccessible('the page showing a pass');
  });
});
