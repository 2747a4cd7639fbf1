import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PayerNames } from '../../src/payers/payer-names.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/database.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { batchIdFor, FAST_BATCH, submitRequests } from '../../testing/batches.js';
import { testBlindIndex } from '../../testing/codec.js';
import { testStore } from '../../testing/database.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { axeViolations, launchChromium, signInAt } from '../../testing/browser.js';
import { startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { verificationAwaitingInput } from '../../testing/waiting-verifications.js';

/** A phone's width: every page must fit it without scrolling sideways. */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

// An operator's morning in Chromium against the real stack (the run's dev server, a worker, the sandbox): find a
// patient by name and date of birth and by member id, work the failed list, answer a run through its form, follow a
// batch to its results. Each page: axe-core (WCAG 2.1 A/AA) finds nothing, and at 390 px nothing scrolls sideways.
describe("operator console in a browser: an operator's morning", function () {
  this.timeout(120_000);
  let h: WorkflowHarness;
  let console: TestConsole;
  let store: Store;
  let audit: AuditTrail;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const client = () => testTemporal().client;
  // A patient of this run only: no other suite's verification has this name.
  const suffix = randomUUID().slice(0, 6).replace(/\d/g, 'q');
  const patient = {
    firstName: 'Marguerite',
    lastName: `Okonkwo-Bell${suffix}`,
    dateOfBirth: '07/14/1979',
    state: 'WA',
    memberId: `MOB-${randomUUID().slice(0, 6)}`,
  };

  before(async () => {
    [h, store] = await Promise.all([startWorkflowHarness(), testStore()]);
    audit = new AuditTrail(store);
    const service = loadConfig('worker', { ELIGIBILITY_BASE_URL: h.sandbox.url }).service;
    console = await startTestConsole(client(), {
      listen: true,
      audit,
      payers: new PayerNames(new EligibilityClient(service)),
    });
    browser = await launchChromium();
    context = await browser.newContext({ acceptDownloads: true, viewport: LAPTOP });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await console?.close();
    await h?.stop();
    await store?.close();
  });

  /** The page as it stands: no accessibility violation, and no sideways scroll on a phone. */
  async function checkPage(what: string) {
    const violations = await axeViolations(page);
    assert.deepEqual(
      violations.map((v) => `${v.id} (${v.impact}): ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`),
      [],
      `accessibility violations on ${what}`,
    );
    await page.setViewportSize(PHONE);
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    // What sticks out, to say in the failure which element to fix.
    const wide = await page.evaluate(
      (limit) =>
        Array.from(document.querySelectorAll('body *'))
          .filter((e) => e.getBoundingClientRect().right > limit + 1)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`),
      PHONE.width,
    );
    await page.setViewportSize(LAPTOP);
    assert.ok(width <= PHONE.width, `${what} scrolls sideways at 390 px (${width} px wide): ${wide.join(', ')}`);
  }

  const signIn = () => signInAt(page, `${console.url}/verifications`, console.operator);

  it('finds a patient, works the failed list, answers a run through its form and follows a batch', async () => {
    // The night's work: the patient's verification, a failure of an unknown payer, a run awaiting input, a batch.
    const blindIndex = testBlindIndex();
    const { workflowId } = await startVerification(client(), v2Intake({ patient }), {
      taskQueue: h.taskQueue,
      timing: FAST,
      blindIndex,
    });
    const failed = await startVerification(client(), v2Intake({ payerId: '99999' }), {
      taskQueue: h.taskQueue,
      timing: FAST,
      blindIndex,
    });
    await client()
      .workflow.getHandle(failed.workflowId)
      .result()
      .catch(() => undefined);
    const awaiting = await verificationAwaitingInput(h);
    const batchId = batchIdFor('morning');
    const rows = [v2Intake(), v2Intake({ payerId: '99999' }), v2Intake({ specialtyCode: 'NOPE' }), v2Intake()];
    // Kept open once its items end, so that its failures can still be resubmitted.
    await submitRequests(client(), h.taskQueue, batchId, rows, {
      timing: { ...FAST_BATCH, keepOpenSeconds: 300 },
      about: { label: 'monday-clinic-a.csv', submittedBy: 'cli:alice' },
    });

    await signIn();
    await checkPage('the find page');

    // 1. A patient calls: last name and date of birth, typed otherwise than the intake had them.
    await page.getByLabel('Last name').fill(patient.lastName.toLowerCase().replace('-', ' '));
    await page.getByLabel('Date of birth').fill('1979-07-14');
    const found = page.getByRole('link', { name: workflowId, exact: true });
    await eventually(async () => {
      await page.getByRole('button', { name: 'Find the patient' }).click();
      return (await found.count()) > 0 ? true : undefined;
    }, 15_000);
    assert.doesNotMatch(page.url(), new RegExp(patient.lastName, 'i'), 'nothing typed reaches the URL');
    assert.match(await page.locator('table').innerText(), /Evergreen Health Plan/, 'the payer by its name');
    await checkPage('the patient found by name and date of birth');

    // 2. The member id alone, with its dashes left out and in lower case.
    await page.getByLabel('Last name').fill('');
    await page.getByLabel('Date of birth').fill('');
    await page.getByLabel('Member id').fill(patient.memberId.replace('-', '').toLowerCase());
    await page.getByRole('button', { name: 'Find the patient' }).click();
    await found.waitFor();
    await checkPage('the patient found by member id');
    await found.click();
    await page.waitForURL(/\/verifications\/verification-/);
    const main = await page.locator('main').innerText();
    assert.match(main, new RegExp(patient.lastName));
    assert.match(main, /Evergreen Health Plan/);
    assert.doesNotMatch(main, /Temporal status|settled|a discovery looks it up/);
    await checkPage("the patient's verification");
    const searches = await audit.list({ action: 'verification.search', limit: 100 });
    assert.deepEqual(
      searches.slice(-2).map((e) => e.fields.join(',')),
      ['lastName,dateOfBirth', 'memberId'],
      'each search recorded with the fields searched by',
    );

    // 3. The failed list, with its count in the navigation, grouped by payer and by error field.
    const failedLink = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /Failed/ });
    assert.match(await failedLink.innerText(), /Failed\s*\d+/);
    await failedLink.click();
    await page.waitForURL(/\/failed$/);
    await page.getByRole('link', { name: failed.workflowId, exact: true }).waitFor();
    await checkPage('the failed list');
    await page.getByRole('region', { name: 'By payer' }).getByRole('link', { name: /99999/ }).click();
    await page.waitForURL(/\/failed\?payer=99999/);
    await page.getByRole('link', { name: failed.workflowId, exact: true }).waitFor();
    assert.match(await page.locator('table').innerText(), /payerId|NotFound/, 'the error field of the failure');
    await checkPage('the failed list of one payer');

    // 4. A run awaiting input, answered through the form built from what it asks for.
    await page.getByRole('link', { name: /Needs input/ }).click();
    const row = page.locator('tr', { has: page.getByRole('link', { name: awaiting.workflowId, exact: true }) });
    await eventually(async () => ((await row.count()) > 0 ? true : (await page.reload(), undefined)), 15_000);
    await checkPage('the needs-input list');
    await row.getByRole('link', { name: 'Answer' }).click();
    await page.getByLabel(/Authorization number/).waitFor();
    await checkPage('the answer form');
    await page.getByLabel(/Authorization number/).fill('A-100');
    await page.getByRole('button', { name: 'Send the input' }).click();
    await page
      .getByRole('status')
      .getByText(/the service took the input/)
      .waitFor();
    await checkPage('the answered run');
    assert.equal((await awaiting.wf.result()).outcome, 'completed');

    // 5. The batch: newest first, its rows in order, the invalid row and its reason, a warning before resubmitting.
    await page.getByRole('link', { name: 'Batches' }).click();
    await checkPage('the batches list');
    // Named by its label, with who submitted it.
    await page.getByRole('link', { name: 'monday-clinic-a.csv' }).click();
    await page.getByText('cli:alice').first().waitFor();
    const ended = ['settled', 'finished'].map((s) => `[data-batch-state="${s}"]`).join(', ');
    await page.locator(ended).waitFor({ timeout: 60_000 });
    await page.reload();
    const invalid = await page.locator('table.invalid-rows').innerText();
    assert.match(invalid, /3\s+specialtyCode/, 'the invalid row, its field and its reason');
    const itemRows = await page.locator('table.items:not(.invalid-rows) tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(itemRows, ['1', '2', '4'], 'items in row order');
    await page.getByText(/will fail again/).waitFor();
    await checkPage('the batch page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download results (CSV)' }).click(),
    ]);
    const csv = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    assert.equal(csv.length, 5, 'a header and four rows');
  });
});
