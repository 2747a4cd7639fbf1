import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { PayerNames } from '../../src/payers/payer-names.js';
import { IntakeClients } from '../../src/access/intake-clients.js';
import { OperatorDirectory } from '../../src/access/operators.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { EligibilityClient } from '../../src/client/index.js';
import { loadConfig } from '../../src/config.js';
import { SecretBox } from '../../src/events/secret-box.js';
import { eventServices } from '../../src/events/services.js';
import { createLogger } from '../../src/logging.js';
import { readPatient, scheduleAppointment, type Patients } from '../../src/patients/patients.js';
import { dayStartsAt } from '../../src/patients/visit-day.js';
import { putRefreshSchedule } from '../../src/schedules/refresh-schedules.js';
import type { Store } from '../../src/store/database.js';
import { batchIdFor, submitRequests } from '../../testing/batches.js';
import { axeViolations, launchChromium, layoutProblems, signInAt } from '../../testing/browser.js';
import { testCodecKeys } from '../../testing/codec.js';
import { startTestConsole, type TestConsole } from '../../testing/console-app.js';
import { testStore } from '../../testing/database.js';
import { FAST, TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { verificationAwaitingInput } from '../../testing/waiting-verifications.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const today = () => new Date().toISOString().slice(0, 10);

// Every page of the console, as an administrator and as a viewer, at a laptop's and a phone's width: axe-core
// (WCAG 2.1 A/AA) finds nothing, nothing scrolls sideways, no control sits off-screen. Then the intake API's
// reference page, whose violations (Swagger UI's own markup) are listed, not asserted.
describe('operator console in a browser: every page at 1280 and 390 px', function () {
  this.timeout(180_000);
  let h: WorkflowHarness;
  let console: TestConsole;
  let store: Store;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const client = () => testTemporal().client;
  const tenant = `pages-${randomUUID().slice(0, 8)}`;
  const viewer = { name: `vera-${randomUUID().slice(0, 6)}`, password: `vera-${randomUUID()}` };
  /** The pages reached from data made here, besides the navigation's. */
  const made: Record<string, string> = {};

  before(async () => {
    [h, store] = await Promise.all([startWorkflowHarness(), testStore()]);
    const directory = new OperatorDirectory(store);
    const clients = new IntakeClients(store);
    const events = eventServices(store, new SecretBox(testCodecKeys()));
    await directory.create({ ...viewer, role: 'viewer', tenants: null, by: 'test' });
    await clients.create({
      name: 'Clinic PMS with a rather long name',
      tenant,
      scopes: ['verifications:read'],
      by: 'test',
    });
    const { endpoint } = await events.endpoints.create({
      tenant,
      url: `https://pms.example/a/rather/long/path/for/hooks/${'x'.repeat(40)}`,
      events: ['verification.completed', 'verification.failed', 'batch.finished'],
    });
    const service = loadConfig('worker', { ELIGIBILITY_BASE_URL: h.sandbox.url }).service;
    console = await startTestConsole(client(), {
      listen: true,
      audit: new AuditTrail(store),
      directory,
      clients,
      events,
      payers: new PayerNames(new EligibilityClient(service)),
      env: { CODEC_TOKEN_SECRET: 'a-pass-secret-of-at-least-32-characters' },
    });
    const awaiting = await verificationAwaitingInput(h);
    const batchId = batchIdFor('pages');
    await submitRequests(client(), h.taskQueue, batchId, [v2Intake(), v2Intake({ specialtyCode: 'NOPE' })], {
      about: { label: 'a-long-file-name-of-the-monday-clinic-schedule.csv', submittedBy: 'cli:alice' },
    });
    await putRefreshSchedule(client(), h.taskQueue, { tenant, paused: true });
    const offsetSeconds = Math.round((Date.now() - dayStartsAt(today(), 'UTC')) / 1000);
    const patients: Patients = {
      client: client(),
      taskQueue: h.taskQueue,
      idKey: randomBytes(32),
      verificationTiming: FAST,
      policy: { offsets: [{ offsetSeconds, reuseWithinSeconds: 0 }] },
    };
    const { patientId } = await scheduleAppointment(patients, {
      tenant,
      patientRef: 'MRN-PAGES-1',
      patient: { firstName: 'Hedy', lastName: 'Lamarr', dateOfBirth: '11/09/1984', state: 'CA', memberId: 'HL5566778' },
      payerId: '60054',
      dateOfService: today(),
      specialtyCode: 'PRC',
      placeOfServiceCode: '11',
    });
    const { timeline } = await eventually(async () => {
      const view = await readPatient(patients, patientId);
      return view.timeline.length > 0 ? view : undefined;
    }, 30_000);
    Object.assign(made, {
      'the answer form': `/runs/${awaiting.workflowId}`,
      'a batch': `/batches/${batchId}`,
      'a verification': `/verifications/${timeline[0]!.workflowId}`,
      'a patient': `/patients/${patientId}`,
      'an event endpoint': `/event-endpoints/${endpoint.id}`,
      'the form adding an endpoint': '/event-endpoints/new',
      'an operator': `/admin/operators/${viewer.name}`,
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
    context = await browser.newContext({ viewport: LAPTOP });
    page = await context.newPage();
  });
  afterEach(() => context.close());

  const signIn = (who: { name: string; password: string }) => signInAt(page, `${console.url}/verifications`, who);

  /** Every page of the navigation (the administrators' too, for them) and the pages made here. */
  async function pagesOf(role: 'admin' | 'viewer'): Promise<[string, string][]> {
    const nav = await page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link')
      .evaluateAll((links) =>
        links.map((a) => [a.textContent.trim(), new URL((a as HTMLAnchorElement).href).pathname]),
      );
    // A viewer has no administrators' pages, and no form that changes anything.
    const extra = Object.entries(made).filter(
      ([, path]) => role === 'admin' || !(path.startsWith('/admin/') || path.endsWith('/new')),
    );
    return [...(nav as [string, string][]), ...extra];
  }

  /** Visits each page at both widths; answers every problem found, by page. */
  async function sweep(role: 'admin' | 'viewer'): Promise<{ problems: string[]; visited: string[] }> {
    const problems: string[] = [];
    const visited: string[] = [];
    for (const [name, path] of await pagesOf(role)) {
      for (const viewport of [LAPTOP, PHONE]) {
        await page.setViewportSize(viewport);
        const answer = await page.goto(`${console.url}${path}`);
        const where = `${role} ${viewport.width} px ${name} (${path})`;
        if (answer?.status() !== 200) {
          problems.push(`${where}: answered ${answer?.status()}`);
          continue;
        }
        if (viewport === LAPTOP) visited.push(path);
        for (const v of await axeViolations(page)) {
          problems.push(`${where}: ${v.id} (${v.impact}) ${v.help} ${JSON.stringify(v.nodes.map((n) => n.target))}`);
        }
        for (const p of await layoutProblems(page)) problems.push(`${where}: ${p}`);
      }
    }
    return { problems, visited };
  }

  it('shows an administrator every page without an accessibility violation or a sideways scroll', async () => {
    await signIn(console.operator);
    const { problems, visited } = await sweep('admin');
    assert.ok(visited.includes('/admin/audit') && visited.includes('/schedules'), visited.join(' '));
    assert.deepEqual(problems, []);
  });

  it('shows a viewer every page without an accessibility violation or a sideways scroll', async () => {
    await signIn(viewer);
    const { problems } = await sweep('viewer');
    assert.deepEqual(problems, []);
  });

  it("lists the violations of the intake API's reference page (Swagger UI's own markup)", async () => {
    const config = loadConfig('intake', { INTAKE_API_KEY: TEST_INTAKE_KEY, LOG_LEVEL: 'silent' });
    const api = createIntakeApi({
      config,
      client: client(),
      taskQueue: h.taskQueue,
      logger: createLogger(config, 'eligibility'),
      timing: FAST,
    });
    try {
      const url = (await api.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
      for (const viewport of [LAPTOP, PHONE]) {
        await page.setViewportSize(viewport);
        await page.goto(`${url}/docs`);
        await page.locator('.opblock').first().waitFor();
        const byRule = (await axeViolations(page)).map((v) => `${v.id} ${v.nodes.length}`);
        const layout = await layoutProblems(page);
        // Figures for lab/README.md; the page is Swagger UI's, so they are read, not held to zero.
        process.stdout.write(
          `      /docs at ${viewport.width} px: ${byRule.join(', ') || 'no violation'}` +
            `${layout.length ? `; ${layout.join('; ')}` : ''}\n`,
        );
      }
    } finally {
      await api.close();
    }
  });
});
