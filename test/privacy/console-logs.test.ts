import assert from 'node:assert/strict';
import { startVerification } from '../../src/temporal/start-verification.js';
import type { verificationWorkflow } from '../../workflows/verification/index.js';
import { runAwaitingInputSignal, statusQuery } from '../../workflows/verification/verification.js';
import { FAST, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { csrfFrom, signIn, startTestConsole, type TestConsole } from '../../testing/console-app.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const PATIENT = {
  firstName: 'Consolina',
  lastName: 'Phiworth',
  dateOfBirth: '03/14/1971',
  state: 'NY',
  memberId: 'MPHI445566',
};
/** What the operator types: a value that looks like patient data, and a name typed into the search by mistake. */
const TYPED = { input: '{"subscriberName": "Typedname Secretia"}', search: 'Searchy Phiname' };

// The console shows decrypted patient data to signed-in operators; its logs (at debug level) must hold none of it.
describe('the console logs no patient data', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let console: TestConsole;
  before(async () => {
    h = await startWorkflowHarness();
    console = await startTestConsole(testTemporal().client);
  });
  after(async () => {
    await console?.close();
    await h?.stop();
  });

  it('while an operator views a patient, answers a run, searches by name and mistypes a password', async () => {
    const client = testTemporal().client;
    const { workflowId } = await startVerification(client, v2Intake({ specialtyCode: 'ABA', patient: PATIENT }), {
      taskQueue: h.taskQueue,
      timing: FAST,
    });
    const wf = client.workflow.getHandle<typeof verificationWorkflow>(workflowId);
    const verificationId = await eventually(async () => (await wf.query(statusQuery)).verificationId);
    const [run] = await eventually(async () => {
      const runs = await h.sandbox.runs(verificationId);
      return runs.length > 0 ? runs : undefined;
    });
    await wf.signal(runAwaitingInputSignal, { flowRunId: run!.flowRunId });
    await eventually(async () => ((await wf.query(statusQuery)).pendingRuns.length > 0 ? true : undefined));

    const failed = await console.app.inject({ method: 'GET', url: '/sign-in', headers: { accept: 'text/html' } });
    const badPassword = 'Wrongpass-Phi-778';
    await console.app.inject({
      method: 'POST',
      url: '/sign-in',
      headers: { ...FORM, cookie: String(failed.headers['set-cookie']).split(';')[0] },
      payload: new URLSearchParams({ _csrf: csrfFrom(failed.body), name: 'alice', password: badPassword }).toString(),
    });

    const cookie = await signIn(console);
    const get = (url: string) => console.app.inject({ method: 'GET', url, headers: { cookie } });
    const answerPage = await get(`/runs/${workflowId}`);
    assert.match(answerPage.body, /Consolina Phiworth/, 'the signed-in operator sees the patient');
    const post = (url: string, fields: Record<string, string>) =>
      console.app.inject({
        method: 'POST',
        url,
        headers: { ...FORM, cookie },
        payload: new URLSearchParams({ _csrf: csrfFrom(answerPage.body), ...fields }).toString(),
      });
    const runUrl = `/runs/${workflowId}/${run!.flowRunId}`;
    assert.equal((await post(runUrl, { input: '{"subscriberName": ' })).statusCode, 400, 'not JSON');
    assert.equal((await post(runUrl, { input: '{}' })).statusCode, 400, 'refused by the service');
    const answered = await post(runUrl, { input: TYPED.input });
    assert.equal(answered.statusCode, 303);
    const search = await post('/verifications', { q: TYPED.search });
    assert.equal(search.statusCode, 404);
    assert.match((await get(`/verifications/${workflowId}`)).body, /MPHI445566/);
    await get('/awaiting-input');

    const logs = console.logs.join('');
    assert.match(logs, new RegExp(workflowId), 'the console logged its requests, by workflow id');
    const secrets = [
      ...Object.values(PATIENT).filter((v) => v !== 'NY'),
      'Typedname',
      'Secretia',
      'Searchy',
      'Phiname',
      badPassword,
    ];
    assert.deepEqual(
      secrets.filter((value) => logs.includes(value)),
      [],
      'patient data or a password in the console logs',
    );
    assert.equal((await wf.result()).outcome, 'completed');
  });
});
