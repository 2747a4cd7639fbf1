import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { COVERAGE_WORDS } from '../../apps/console/views/coverage-words.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import type { VerificationPatient } from '../../src/contract/index.js';
import { scheduleAppointment, type Patients } from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { PayerNames } from '../../src/payers/payer-names.js';
import type { Store } from '../../src/store/database.js';
import { awaitingInput, Visits, VISIT_COVERAGES, type VisitCoverage } from '../../src/visits/index.js';
import { patientVerificationWorkflowId, patientWorkflowId } from '../../workflows/shared/ids.js';
import { refreshCoverageSignal } from '../../workflows/patient/patient.js';
import { axeViolations, launchChromium, layoutProblems } from '../../testing/browser.js';
import { testBlindIndex, testCodecKeys } from '../../testing/codec.js';
import { startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { testStore } from '../../testing/database.js';
import { FAST } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { announcePendingRun } from '../../testing/waiting-verifications.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const DAY_S = 86_400;

/** A patient of the clinic's day, and the coverage its visit comes to stand at. */
interface Booking {
  coverage: VisitCoverage;
  patient: VerificationPatient;
  patientRef: string;
  startTime: string;
  patientId?: string;
}

// Twenty visits of one clinic today, every one booked on a real patient workflow whose copy the worker keeps: the
// sandbox and each patient's check policy bring each to its coverage (see `book`), none is written by hand.
const ROSTER: [VisitCoverage, string, string, string][] = [
  ['verified', 'Marguerite', 'Okonkwo-Bell', '07/14/1979'],
  ['verified', 'Tomasz', 'Wierzbicki', '02/03/1961'],
  ['verified', 'Imani', 'Achterberg', '11/30/1990'],
  ['verified', 'Lucía', 'Fernández Ortiz', '05/05/1955'],
  ['verified', 'Kenji', 'Watanabe', '09/21/1983'],
  ['no-coverage', 'Priya', 'Raghunathan', '01/17/1972'],
  ['no-coverage', 'Oluwaseun', 'Adeyemi', '08/08/1999'],
  ['needs-input', 'Hedda', 'Lindqvist', '03/12/1988'],
  ['needs-input', 'Rafael', 'Quintero', '06/29/1970'],
  ['needs-input', 'Aoife', 'Byrne', '12/01/2001'],
  ['failed', 'Dmitri', 'Sokolov', '04/04/1966'],
  ['failed', 'Mei', 'Chen', '10/10/1993'],
  ['failed', 'Samuel', 'Osei', '07/07/1947'],
  ['checking', 'Ingrid', 'Halvorsen', '02/14/1985'],
  ['checking', 'Youssef', 'Haddad', '05/23/1978'],
  ['not-checked', 'Beatriz', 'Carvalho', '09/09/1962'],
  ['not-checked', 'Nikolai', 'Petrov', '11/11/1981'],
  ['not-checked', 'Fatima', 'Zahra', '03/03/1996'],
  ['changed', 'Grace', 'Whitfield', '06/06/1958'],
  ['changed', 'Arturo', 'Mendoza', '08/19/1975'],
];

const expectedCounts = (over: Partial<Record<VisitCoverage, number>> = {}) => {
  const counts = Object.fromEntries(VISIT_COVERAGES.map((c) => [c, 0])) as Record<VisitCoverage, number>;
  for (const [coverage] of ROSTER) counts[coverage]++;
  return { ...counts, ...over };
};

// A front desk's morning in Chromium against the real stack (the run's dev server, a worker keeping patient copies in
// PostgreSQL, the sandbox): the clinic's day with its visits counted by coverage and filtered by one, a patient opened
// from it, the run its check waits on answered, the day again with that visit verified; then a patient booked by
// appointment found by name and date of birth, by member id and by the practice's reference. Every page at 1280 and
// 390 px: axe-core (WCAG 2.1 A/AA) finds nothing, nothing scrolls sideways, no control sits off-screen.
describe("operator console in a browser: a front desk's morning", function () {
  this.timeout(150_000);
  let h: WorkflowHarness;
  let console: TestConsole;
  let store: Store;
  let visits: Visits;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const client = () => testTemporal().client;
  const tenant = `clinic-${randomUUID().slice(0, 8)}`;
  const desk = { name: `desk-${randomUUID().slice(0, 6)}`, password: `desk-${randomUUID()}` };
  const idKey = randomBytes(32);
  const today = new Date().toISOString().slice(0, 10);
  const bookings: Booking[] = ROSTER.map(([coverage, firstName, lastName, dateOfBirth], i) => {
    // Half-hour slots from 08:00, the states mixed over them: the page orders by time.
    const slot = (i * 7) % 20;
    return {
      coverage,
      patient: { firstName, lastName, dateOfBirth, state: 'NY', memberId: `FD${700_100 + i * 37}` },
      patientRef: `MRN-${tenant}-${i + 1}`,
      startTime: `${String(8 + Math.floor(slot / 2)).padStart(2, '0')}:${slot % 2 ? '30' : '00'}`,
    };
  });
  const pagesChecked: string[] = [];

  before(async () => {
    store = await testStore();
    visits = new Visits(store, testCodecKeys());
    h = await startWorkflowHarness({ discoveryDelayMs: 200 }, { copies: visits });
    const directory = new OperatorDirectory(store);
    await directory.create({ ...desk, role: 'operator', tenants: [tenant], by: 'test' });
    const service = loadConfig('worker', { ELIGIBILITY_BASE_URL: h.sandbox.url }).service;
    console = await startTestConsole(client(), {
      listen: true,
      audit: new AuditTrail(store),
      directory,
      visits,
      patientIdKey: idKey,
      payers: new PayerNames(new EligibilityClient(service)),
    });
    await Promise.all(bookings.map(book));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: LAPTOP });
    page = await context.newPage();
  });
  after(async () => {
    await context?.close();
    await browser?.close();
    await console?.close();
    // Its patients end with it: left running without their worker, they would stall other suites' lists (Changes).
    await Promise.all(
      bookings.flatMap((b) =>
        b.patientId
          ? [
              client()
                .workflow.getHandle(patientWorkflowId(b.patientId))
                .terminate('the suite is over')
                .catch(() => {}),
            ]
          : [],
      ),
    );
    await h?.stop();
    await store?.close();
  });

  /** Seconds from the start of today (UTC) to `secondsFromNow` from now: a check policy's offset for today's visits. */
  const fromNow = (secondsFromNow: number) =>
    Math.round((Date.now() - dayStartsAt(today, 'UTC')) / 1000) + secondsFromNow;

  /** The sandbox's answer for this patient from now on (`POST /sandbox/coverage`). */
  const sandboxCoverage = (patient: VerificationPatient, change: 'lose') =>
    fetch(`${h.sandbox.url}/sandbox/coverage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ patient, change }),
    }).then((r) => assert.equal(r.status, 200));

  /**
   * Books the visit on a patient whose check policy and sandbox answers bring it to its coverage:
   * - verified: checked now, the sandbox covers it; failed: checked now with an unknown payer (99999);
   * - checking: checked now, its verification waiting an hour for a run that never comes (a long grace);
   * - needs-input: checked now for ABA therapy, whose run asks for an authorization number (announced as the
   *   receiver would), nobody answering it yet;
   * - not-checked: its only check 30 days after the visit's day starts;
   * - no-coverage: the sandbox has lost its coverage; a refresh (a discovery) finds none before the visit's check, which
   *   reuses that answer;
   * - changed: the same refresh, then the visit's own check (never reusing) finds it covered: coverage found.
   */
  async function book(b: Booking): Promise<void> {
    const soon = b.coverage === 'no-coverage' || b.coverage === 'changed';
    const patients: Patients = {
      client: client(),
      taskQueue: h.taskQueue,
      idKey,
      blindIndex: testBlindIndex(),
      verificationTiming:
        b.coverage === 'checking' || b.coverage === 'needs-input' ? { ...FAST, graceSeconds: 3600 } : FAST,
      policy: {
        offsets: [
          {
            // A refresh's message reaches the patient before its check falls due (5 s away).
            offsetSeconds: b.coverage === 'not-checked' ? 30 * DAY_S : fromNow(soon ? 5 : 0),
            reuseWithinSeconds: b.coverage === 'no-coverage' ? DAY_S : 0,
          },
        ],
      },
    };
    if (soon) await sandboxCoverage(b.patient, 'lose');
    const { patientId } = await scheduleAppointment(patients, {
      tenant,
      patientRef: b.patientRef,
      patient: b.patient,
      payerId: b.coverage === 'failed' ? '99999' : '60054',
      dateOfService: today,
      startTime: b.startTime,
      specialtyCode: b.coverage === 'needs-input' ? 'ABA' : 'PRC',
      placeOfServiceCode: '11',
    });
    b.patientId = patientId;
    if (soon) {
      const refreshId = `refresh-${tenant}-morning`;
      await client()
        .workflow.getHandle(patientWorkflowId(patientId))
        .signal(refreshCoverageSignal, { refreshId, batchId: refreshId });
    }
    if (b.coverage === 'needs-input') await announcePendingRun(h, patientVerificationWorkflowId(patientId, 0));
  }

  /** The day's counts as the page will read them (copies and the visibility list of checks waiting for a person). */
  const dayCounts = async () =>
    (
      await visits.day({
        day: today,
        tenants: [tenant],
        tenant,
        awaitingInput: await awaitingInput(client(), [tenant], tenant),
      })
    ).counts;

  /** The page as it stands, at a laptop's and a phone's width: no accessibility violation, no layout problem. */
  async function checkPage(what: string) {
    const problems: string[] = [];
    for (const viewport of [LAPTOP, PHONE]) {
      await page.setViewportSize(viewport);
      for (const v of await axeViolations(page)) {
        problems.push(
          `${viewport.width} px: ${v.id} (${v.impact}) ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`,
        );
      }
      for (const p of await layoutProblems(page)) problems.push(`${viewport.width} px: ${p}`);
    }
    await page.setViewportSize(LAPTOP);
    assert.deepEqual(problems, [], `problems on ${what}`);
    pagesChecked.push(what);
  }

  const coverageLines = (counts: Record<VisitCoverage, number>) =>
    VISIT_COVERAGES.map((c) => `${COVERAGE_WORDS[c]}: ${counts[c]}`);
  const shownCounts = async () =>
    (await page.getByRole('region', { name: 'By coverage' }).locator('li').allInnerTexts()).map((t) =>
      t.replace(/\s+/g, ' ').trim(),
    );
  const nameOf = (b: Booking) => `${b.patient.firstName} ${b.patient.lastName}`;
  const rowOf = (b: Booking) => page.locator('tbody tr', { has: page.getByRole('link', { name: nameOf(b) }) });

  it("works the clinic's day: counts and a filter, a patient, its run answered, the day changed", async () => {
    const started = Date.now();
    await eventually(
      async () => {
        const counts = await dayCounts();
        return JSON.stringify(counts) === JSON.stringify(expectedCounts()) ? true : undefined;
      },
      45_000,
      `every visit at its coverage (${JSON.stringify(expectedCounts())})`,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}; the day stands at ${JSON.stringify(await dayCounts())}`);
    });
    process.stdout.write(`      the day's 20 visits at their coverage ${Date.now() - started} ms after booking\n`);

    // 1. Signed in, the front desk lands on its day: every state counted.
    await page.goto(`${console.url}/today`);
    await checkPage('the sign-in page');
    await page.getByLabel('Operator name').fill(desk.name);
    await page.getByLabel('Password').fill(desk.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/today/);
    assert.deepEqual(await shownCounts(), coverageLines(expectedCounts()));
    assert.equal(await page.locator('tbody tr').count(), 20, 'one page holds the day');
    const times = await page.locator('tbody tr td:first-child').allInnerTexts();
    assert.deepEqual(times, [...times].sort(), 'in order of time');
    await checkPage("today's visits");

    // 2. Only the visits waiting for a person's input.
    const waiting = bookings.filter((b) => b.coverage === 'needs-input');
    await page
      .getByRole('region', { name: 'By coverage' })
      .getByRole('link', { name: 'Needs input', exact: true })
      .click();
    await page.waitForURL(/coverage=needs-input/);
    assert.equal(await page.locator('tbody tr').count(), waiting.length);
    for (const b of waiting) assert.match(await rowOf(b).innerText(), /Needs input/);
    await checkPage("today's visits needing input");

    // 3. One of them opened: its page is headed by the patient, its check in progress links to its verification.
    const answered = waiting[0]!;
    const workflowId = patientVerificationWorkflowId(answered.patientId!, 0);
    await rowOf(answered)
      .getByRole('link', { name: nameOf(answered) })
      .click();
    await page.waitForURL(new RegExp(`/patients/${answered.patientId}$`));
    assert.equal((await page.locator('h1').innerText()).trim(), nameOf(answered));
    // The visit reads as Today reads it: waiting for a person, not merely checking.
    assert.match(await page.locator('#upcoming-h').locator('..').innerText(), /Needs input/);
    await checkPage('the patient');
    await page.getByRole('link', { name: workflowId, exact: true }).first().click();
    await page.waitForURL(new RegExp(`/verifications/${workflowId}$`));
    await checkPage("the patient's verification");

    // 4. Its run answered through the form built from what it asks for.
    await page.getByRole('link', { name: 'Answer the pending run' }).click();
    await page.getByLabel(/Authorization number/).waitFor();
    await checkPage('the answer form');
    await page.getByLabel(/Authorization number/).fill('A-2291');
    await page.getByRole('button', { name: 'Send the input' }).click();
    await page
      .getByRole('status')
      .getByText(/the service took the input/)
      .waitFor();
    await checkPage('the answered run');

    // 5. Back to the day: that visit is verified now, the counts moved with it.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: /Today/ }).click();
    await page.waitForURL(/\/today/);
    const after = expectedCounts({ verified: 6, 'needs-input': 2 });
    await eventually(
      async () => {
        const row = await rowOf(answered).innerText();
        if (
          /Verified, active/.test(row) &&
          JSON.stringify(await shownCounts()) === JSON.stringify(coverageLines(after))
        ) {
          return true;
        }
        await page.reload();
        return undefined;
      },
      20_000,
      'the answered visit verified on the day',
    );
    await checkPage("today's visits, one answered");
  });

  it('finds a patient booked by appointment by name and date of birth, by member id and by reference', async () => {
    const booked = bookings[0]!;
    await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: /Patients/ })
      .click();
    await page.waitForURL(/\/patients$/);
    await checkPage('the patient search');
    const fields = ['Last name', 'Date of birth', 'Member id', 'Patient reference'];
    const found = page.locator('table').getByRole('link', { name: nameOf(booked) });
    const search = async (what: string, typed: Record<string, string>) => {
      for (const label of fields) await page.getByLabel(label, { exact: true }).fill(typed[label] ?? '');
      await page.getByRole('button', { name: 'Find the patient' }).click();
      await found.waitFor();
      assert.equal(new URL(page.url()).search, '', 'nothing typed reaches the URL');
      assert.equal(await found.getAttribute('href'), `/patients/${booked.patientId}`);
      await checkPage(`the patient found by ${what}`);
    };
    // Typed otherwise than the practice booked it: case, a space for the dash, the calendar's date.
    await search('last name and date of birth', { 'Last name': 'okonkwo bell', 'Date of birth': '1979-07-14' });
    await search('member id', { 'Member id': booked.patient.memberId!.toLowerCase() });
    await search('patient reference', { 'Patient reference': booked.patientRef });
    process.stdout.write(`      pages checked at 1280 and 390 px: ${pagesChecked.length}\n`);
  });
});
