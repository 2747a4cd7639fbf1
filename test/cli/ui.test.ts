import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { startVerification } from '../../src/temporal/start-verification.js';
import { findView, UI_VIEWS, viewQuery } from '../../src/temporal/ui-views.js';
import { cancelSignal, runAwaitingInputSignal, statusQuery } from '../../workflows/verification/verification.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { lines, runCli } from '../../testing/run-cli.js';

const UI = { TEMPORAL_UI_URL: 'https://ui.example.test/', TEMPORAL_NAMESPACE: 'clinic ns' };

/** The query a printed address carries, and the address without it. */
function parse(address: string): { base: string; query: string | null } {
  const url = new URL(address);
  return { base: `${url.origin}${url.pathname}`, query: url.searchParams.get('query') };
}

describe('eligibility ui: Temporal UI addresses of the views people need', function () {
  this.timeout(60_000);

  it('prints the workflow list of TEMPORAL_UI_URL and TEMPORAL_NAMESPACE with the view query encoded', async () => {
    const [awaiting, failed, batch, query] = await Promise.all([
      runCli(['ui', 'awaiting-input'], UI),
      runCli(['ui', 'failed', '60054'], UI),
      runCli(['ui', 'batch', 'b-2024.06:01'], UI),
      runCli(['ui', 'tenant', 'clinic-7', '--query'], UI),
    ]);
    for (const run of [awaiting, failed, batch, query]) {
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      assert.equal(lines(run.stdout).length, 1, run.stdout);
    }
    const printed = parse(awaiting.stdout.trim());
    assert.equal(printed.base, 'https://ui.example.test/namespaces/clinic%20ns/workflows');
    assert.equal(
      printed.query,
      'ExecutionStatus = "Running" AND (VerificationStage = "awaiting-input" OR WorkflowType = "runInputWorkflow")',
    );
    // Encoded, not merely concatenated: the quotes and spaces of the query never reach the URL as they are.
    assert.doesNotMatch(awaiting.stdout.trim(), /[" ]/);
    assert.equal(
      parse(failed.stdout.trim()).query,
      'WorkflowType = "verificationWorkflow" AND ExecutionStatus = "Failed" AND PayerId = "60054"',
    );
    assert.equal(
      parse(batch.stdout.trim()).query,
      'WorkflowType = "verificationWorkflow" AND BatchId = "b-2024.06:01"',
    );
    assert.equal(query.stdout.trim(), 'WorkflowType = "verificationWorkflow" AND Tenant = "clinic-7"');
  });

  it("defaults to the dev server's UI on TEMPORAL_UI_PORT", async () => {
    const run = await runCli(['ui', 'needs-review'], { TEMPORAL_UI_PORT: '18633', TEMPORAL_UI_URL: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout.trim(), /^http:\/\/127\.0\.0\.1:18633\/namespaces\/default\/workflows\?query=/);
    assert.match(parse(run.stdout.trim()).query ?? '', /VerificationStage = "needs-review"/);
  });

  it('refuses an unknown view, a missing argument and anything not an identifier, in one line', async () => {
    const cases: [string[], RegExp][] = [
      [['ui', 'everything'], /no view "everything": choose one of awaiting-input, needs-review, failed, batch, tenant/],
      [['ui', 'batch'], /the view batch needs a batchId/],
      [['ui', 'tenant', 'Ada Lovelace'], /tenant must be an identifier/],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(args, UI)));
    runs.forEach((run, i) => {
      const [args, message] = cases[i]!;
      assert.equal(run.code, 1, args.join(' '));
      assert.equal(run.stdout, '');
      assert.equal(lines(run.stderr).length, 1, run.stderr);
      assert.match(run.stderr, message);
    });
    assert.ok(!runs[2]!.stderr.includes('Lovelace'), 'the value is not repeated');
  });

  it('takes an argument only where a view has one, and only in the form of an identifier', () => {
    assert.throws(() => viewQuery(findView('needs-review'), 'x'), /the view needs-review takes no argument/);
    assert.throws(() => viewQuery(findView('failed'), '12/10/1985'), /payerId must be an identifier/);
    assert.throws(() => viewQuery(findView('batch'), 'b" OR BatchId != "'), /batchId must be an identifier/);
    assert.throws(() => viewQuery(findView('tenant'), 'x'.repeat(101)), /tenant must be an identifier/);
    assert.equal(
      viewQuery(findView('failed'), undefined),
      'WorkflowType = "verificationWorkflow" AND ExecutionStatus = "Failed"',
    );
  });

  it('the Temporal UI page (docs/operating/temporal-ui.md) lists every view with its query', async () => {
    const page = await fs.readFile(new URL('../../docs/operating/temporal-ui.md', import.meta.url), 'utf8');
    for (const view of UI_VIEWS) {
      const example = view.arg ? `<${view.arg.name}>` : undefined;
      const shown = view.query(example);
      assert.ok(page.includes(`\`eligibility ui ${view.name}${example ? ` ${example}` : ''}\``), `${view.name} listed`);
      assert.ok(page.includes(`\`${shown}\``), `the query of ${view.name} in docs/operating/temporal-ui.md: ${shown}`);
    }
  });

  describe('against the dev server', () => {
    let h: WorkflowHarness;
    before(async () => {
      h = await startWorkflowHarness();
    });
    after(async () => h?.stop());

    it('awaiting-input lists a verification whose run awaits input; failed <payer> one that failed for that payer', async () => {
      const client = testTemporal().client;
      const awaiting = await startVerification(client, v2Intake({ specialtyCode: 'ABA' }), {
        taskQueue: h.taskQueue,
        timing: { ...FAST, graceSeconds: 60 },
      });
      const wf = client.workflow.getHandle(awaiting.workflowId);
      const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
      const [run] = await h.sandbox.runs(verificationId);
      await wf.signal(runAwaitingInputSignal, { flowRunId: run!.flowRunId });

      // A payer the service does not know: the verification fails naming payerId, and is indexed under it.
      const unknownPayer = `nopayer-${randomUUID().slice(0, 8)}`;
      const failed = await startVerification(client, v2Intake({ payerId: unknownPayer }), {
        taskQueue: h.taskQueue,
        timing: FAST,
      });
      await assert.rejects(client.workflow.getHandle(failed.workflowId).result());

      const ids = async (query: string) => {
        const found: string[] = [];
        for await (const info of client.workflow.list({ query })) found.push(info.workflowId);
        return found;
      };
      await eventually(
        async () =>
          (await ids(viewQuery(findView('awaiting-input'), undefined))).includes(wf.workflowId) ? true : undefined,
        10_000,
        'the verification in the awaiting-input view',
      );
      const failedForPayer = await eventually(async () => {
        const found = await ids(viewQuery(findView('failed'), unknownPayer));
        return found.length > 0 ? found : undefined;
      });
      assert.deepEqual(failedForPayer, [failed.workflowId]);
      await wf.signal(cancelSignal, {});
    });
  });
});
