import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { startVerification } from '../../src/temporal/start-verification.js';
import { runAwaitingInputSignal, statusQuery } from '../../workflows/verification/verification.js';
import { DiscoveryId } from '../../workflows/shared/search-attributes.js';
import type { VerificationResult } from '../../workflows/verification/verification.js';
import { FAST, v1Intake, v2Intake } from '../../testing/fixtures.js';
import { temporalEnv, testTemporal } from '../../testing/temporal.js';
import { eventually, startWorkflowHarness, type WorkflowHarness } from '../../testing/workflow-harness.js';
import { waitForBatch } from '../../testing/batches.js';
import { lines, runCli } from '../../testing/run-cli.js';
import { pendingDiscovery } from '../../testing/sandbox.js';

describe('eligibility command against Temporal and the sandbox', function () {
  this.timeout(60_000);
  let h: WorkflowHarness;
  let dir: string;
  let env: Record<string, string>;
  // Unique per run: workflow ids outlive a test on the shared dev server.
  const tag = randomUUID().slice(0, 8);
  const client = () => testTemporal().client;
  const cli = (...args: string[]) => runCli(args, env);

  before(async () => {
    h = await startWorkflowHarness();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-cli-'));
    env = {
      ...temporalEnv(h.taskQueue),
      ELIGIBILITY_BASE_URL: h.sandbox.url,
    };
  });
  after(async () => {
    await h?.stop();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  async function file(name: string, content: string): Promise<string> {
    const p = path.join(dir, name);
    await fs.writeFile(p, content);
    return p;
  }

  async function exists(workflowId: string): Promise<boolean> {
    try {
      await client().workflow.getHandle(workflowId).describe();
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  it('batch: reports an invalid CSV row by row, line and field without its value, and submits the others', async () => {
    const csv = await file(
      'intake.csv',
      [
        'id,firstName,lastName,dateOfBirth,state,memberId,payerId,placeOfServiceCode,specialtyCode',
        `${tag}-b1,Testy,Samplesworth,01/15/1980,WA,EVG1,60054,11,PRC`,
        '',
        `${tag}-b2,Secretly,Zyxwvutson,13/45/1990,WA,EVG2,60054,11,PRC`,
        `${tag}-b3,Fakella,Placeholder,03/22/1975,TX,,87726,11,PRC`,
        `,Nameless,Rowonly,03/22/1975,TX,,87726,11,PSY`,
      ].join('\n'),
    );
    const run = await cli('batch', csv, '--grace-seconds', '1', '--tenant', 'clinic-1', '--wait');
    const output = run.stdout + run.stderr;
    assert.equal(run.code, 2, output);
    // Row 2 of the data is on line 4 of the file (the header and a blank line come before it).
    assert.match(run.stdout, /^intake\.csv: 4 rows: 3 valid, 1 invalid$/m);
    assert.match(run.stdout, /^2\s+4\s+invalid\s+patient\.dateOfBirth/m);
    const batchId = /^Batch (\S+): 3 items submitted/m.exec(run.stdout)?.[1];
    assert.ok(batchId, run.stdout);
    assert.match(run.stdout, new RegExp(`eligibility batches status ${batchId}`));
    assert.match(run.stdout, /^outcome\s+count\s+group$/m, 'the outcome table after --wait');
    assert.match(run.stdout, /^items\s+3\s/m);
    for (const value of ['13/45/1990', 'Secretly', 'Zyxwvutson', 'EVG2']) assert.ok(!output.includes(value), value);
    assert.equal(lines(run.stderr).length, 1);
    assert.match(run.stderr, /^eligibility: 1 row invalid, not submitted/);
    for (const id of ['b1', 'b3']) {
      const description = await client().workflow.getHandle(`verification-${tag}-${id}`).describe();
      assert.equal(description.type, 'verificationWorkflow');
      assert.equal(description.taskQueue, h.taskQueue);
    }
    assert.equal(await exists(`batch-${batchId}.row-4`), true, 'a row without caller id is named by batch and row');
    assert.equal(await exists(`verification-${tag}-b2`), false, 'the invalid row was not started');

    const again = await cli('batch', csv, '--tenant', 'clinic-1');
    assert.match(again.stdout, new RegExp(`^Batch ${batchId} exists already .*nothing new was started`, 'm'));

    await waitForBatch(client(), batchId, (v) => v.state === 'finished');
    const status = await cli('batches', 'status', batchId);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^tenant\s+clinic-1$/m);
    assert.match(status.stdout, /^label\s+intake\.csv$/m, 'the file’s name by default');
    assert.match(status.stdout, new RegExp(`^submitted by\\s+cli:${os.userInfo().username}$`, 'm'));
    assert.match(status.stdout, /^progress\s+completed 3, no-coverage 0, failed 0, needs input 0, in progress 0$/m);
    const items = await cli('batches', 'items', batchId, '--outcome', 'completed');
    assert.match(items.stdout, new RegExp(`^4\\s+batch-${batchId}\\.row-4\\s+0\\s+completed\\s+[0-9a-f-]{36}$`, 'm'));
    const out = path.join(dir, 'results.csv');
    const results = await cli('batches', 'results', batchId, '--out', out);
    assert.equal(results.code, 0, results.stderr);
    assert.match(results.stdout, /^4 rows written to /);
    const written = await fs.readFile(out, 'utf8');
    assert.match(written, /^\uFEFFrow,callerId,workflowId,attempt,outcome,/);
    assert.match(written, new RegExp(`\\r\\n2,${tag}-b2,,,invalid,.*,patient\\.dateOfBirth,.+\\r\\n`));
    assert.equal(((await fs.stat(out)).mode & 0o777).toString(8), '600', 'results may hold member ids');
    const list = await cli('batches', 'list', '--tenant', 'clinic-1');
    assert.match(
      list.stdout,
      new RegExp(`^${batchId}\\s+intake\\.csv\\s+cli:${os.userInfo().username}\\s+(finished|settled)\\s+3\\s`, 'm'),
    );
  });

  it('batch: reads JSONL and creates the sandbox discovery of an @sandbox row; cancel stops the batch', async () => {
    const patient = { firstName: 'Sandy', lastName: 'Discoverly', dateOfBirth: '12/01/1985', state: 'WA' };
    const jsonl = await file(
      'intake.jsonl',
      [
        JSON.stringify({
          id: `${tag}-j1`,
          discoveryId: '@sandbox',
          patient,
          placeOfServiceCode: '11',
          specialtyCode: 'PRC',
        }),
        JSON.stringify({ id: `${tag}-j2`, payerId: '60054', patient, placeOfServiceCode: '11', specialtyCode: 'PRC' }),
        '{"id": "not json',
      ].join('\n'),
    );
    const refused = await cli('batch', jsonl);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /^eligibility: discoveryId @sandbox \(row 1\).*--sandbox-url/);
    assert.equal(await exists(`verification-${tag}-j2`), false, 'nothing starts before the whole file can');

    const run = await cli('batch', jsonl, '--sandbox-url', h.sandbox.url, '--batch-id', `${tag}-jsonl`);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout, /^3\s+3\s+invalid\s+body: the line is not valid JSON$/m);
    const description = await eventually(async () =>
      (await exists(`verification-${tag}-j1`))
        ? client().workflow.getHandle(`verification-${tag}-j1`).describe()
        : undefined,
    );
    const discoveryId = description.typedSearchAttributes.get(DiscoveryId);
    assert.match(discoveryId ?? '', /^[0-9a-f-]{36}$/);

    const cancelled = await cli('batches', 'cancel', `${tag}-jsonl`);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, /cancelling|cancelled/);
    const twice = await cli('batches', 'cancel', `${tag}-jsonl`);
    assert.equal(twice.code, 1);
    assert.match(twice.stderr, /cancelled already|has closed/);
  });

  it('start and status: prints the workflow id, then the status query readably and as JSON', async () => {
    const startArgs = [
      ...['start', '--id', `${tag}-s1`, '--payer-id', '87726', '--first-name', 'Mocky', '--last-name', 'Examplar'],
      ...['--dob', '11/30/2001', '--state', 'CA', '--place-of-service', '11', '--specialty', 'OCT'],
    ];
    const started = await cli(...startArgs);
    assert.equal(started.code, 0, started.stderr);
    assert.equal(started.stdout.trim(), `verification-${tag}-s1 started`);
    const workflowId = `verification-${tag}-s1`;
    await eventually(async () => {
      const s = await client().workflow.getHandle(workflowId).query(statusQuery);
      return s.stage === 'created' ? s : undefined;
    });
    const [readable, json] = await Promise.all([cli('status', workflowId), cli('status', workflowId, '--json')]);
    assert.equal(readable.code, 0, readable.stderr);
    assert.match(readable.stdout, /^stage\s+created$/m);
    assert.match(readable.stdout, /^payerId\s+87726$/m);
    assert.match(readable.stdout, /^verificationId\s+[0-9a-f-]{36}$/m);
    assert.ok(!readable.stdout.includes('Mocky'), 'no patient data');
    const parsed = JSON.parse(json.stdout) as { workflowId: string; stage: string; execution: string };
    assert.equal(parsed.workflowId, workflowId);
    assert.equal(parsed.stage, 'created');
    assert.equal(parsed.execution, 'RUNNING');

    const [duplicate, invalid] = await Promise.all([
      cli(...startArgs),
      cli('start', '--id', `${tag}-s2`, '--payer-id', '87726', '--first-name', 'A', '--dob', '1/2/3'),
    ]);
    assert.equal(duplicate.code, 0, duplicate.stderr);
    assert.match(duplicate.stdout, new RegExp(`^${workflowId} duplicate: `));
    assert.equal(invalid.code, 1);
    assert.match(invalid.stderr, /^eligibility: invalid request: patient\.lastName: /);
  });

  it('start --wait: prints the status once the verification settles, also for a retried start', async () => {
    const startArgs = [
      ...['start', '--id', `${tag}-w1`, '--payer-id', '87726', '--first-name', 'Wanda', '--last-name', 'Waiter'],
      ...['--dob', '11/30/2001', '--state', 'CA', '--place-of-service', '11', '--specialty', 'OCT', '--wait', '10'],
    ];
    const [first, again] = await Promise.all([cli(...startArgs), cli(...startArgs)]);
    for (const run of [first, again]) {
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^stage\s+(created|completed)$/m);
      assert.match(run.stdout, /^verificationId\s+[0-9a-f-]{36}$/m);
      assert.ok(!run.stdout.includes('Wanda'), 'no patient data');
    }
    const startedLine = new RegExp(`^verification-${tag}-w1 started$`, 'm');
    assert.equal([first, again].filter((r) => startedLine.test(r.stdout)).length, 1, 'started once');
  });

  it('list --stage and supply-input: finds a run awaiting input, prints a rejection by param, sends input', async () => {
    const workflowId = `verification-${tag}-aba`;
    const started = await cli(
      ...['start', '--id', `${tag}-aba`, '--payer-id', '60054', '--first-name', 'Bea', '--last-name', 'Havioral'],
      ...['--dob', '06/18/2012', '--state', 'WA', '--place-of-service', '12', '--specialty', 'ABA'],
    );
    assert.equal(started.code, 0, started.stderr);
    const handle = client().workflow.getHandle(workflowId);
    const { verificationId } = await eventually(async () => {
      const s = await handle.query(statusQuery);
      return s.verificationId ? s : undefined;
    });
    const [run] = await h.sandbox.runs(verificationId);
    const flowRunId = run!.flowRunId;
    // What the webhook receiver does on `sandbox.run.pending`.
    await handle.signal(runAwaitingInputSignal, { flowRunId });
    await eventually(
      async () => {
        const query = `WorkflowId = '${workflowId}' AND VerificationStage = 'awaiting-input'`;
        return (await client().workflow.count(query)).count === 1 ? true : undefined;
      },
      15_000,
      'visibility to show the stage',
    );
    const listed = await cli('list', '--stage', 'awaiting-input');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^workflowId\s+stage\s+payerId\s+verificationId\s+status$/m);
    assert.match(
      listed.stdout,
      new RegExp(`^${workflowId}\\s+awaiting-input\\s+60054\\s+${verificationId}\\s+RUNNING$`, 'm'),
    );

    const [unknownRun, serviceRejects] = await Promise.all([
      cli('supply-input', workflowId, 'no-such-run', '--input', '{"a":1}'),
      cli('supply-input', workflowId, flowRunId, '--input', '{}'),
    ]);
    for (const [rejected, param] of [
      [unknownRun, 'flowRunId'],
      [serviceRejects, 'input'],
    ] as const) {
      assert.equal(rejected.code, 1);
      assert.equal(lines(rejected.stderr).length, 1, rejected.stderr);
      assert.match(rejected.stderr, new RegExp(`^eligibility: input rejected \\(param ${param}\\): \\w`));
      assert.equal(rejected.stderr.split(`param ${param}`).length, 2, `param named once: ${rejected.stderr}`);
    }
    assert.match(serviceRejects.stderr, /: the service refused it \(400 invalid_request_error\)$/m);
    const accepted = await cli(
      '--as',
      'clerk-7',
      'supply-input',
      workflowId,
      flowRunId,
      '--input',
      '{"authorizationNumber":"A-100"}',
    );
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.deepEqual(JSON.parse(accepted.stdout), { flowRunId, status: 'CREATED' });
    // History names the person who sent each update: `--as`, else the login name.
    const history = await client().workflow.getHandle(workflowId).fetchHistory();
    const senders = (history.events ?? []).flatMap(
      (e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta?.identity ?? [],
    );
    assert.ok(senders.includes('cli:clerk-7'), senders.join(', '));
    assert.ok(senders.includes(`cli:${os.userInfo().username}`), senders.join(', '));
  });

  it('review: shows why a v1 verification needs review, records the id found, then says it has closed', async () => {
    await h.sandbox.setFaults({ dropResponses: 1 });
    const { workflowId } = await startVerification(client(), v1Intake({ id: `${tag}-v1` }), {
      taskQueue: h.taskQueue,
      timing: FAST,
    });
    const handle = client().workflow.getHandle(workflowId);
    await eventually(async () => ((await handle.query(statusQuery)).stage === 'needs-review' ? true : undefined));
    const status = await cli('status', workflowId);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, /^stage\s+needs-review$/m);
    assert.match(status.stdout, /^needs review\s+v1 creation outcome unknown: .*eligibility review/m);

    const found = randomUUID();
    const recorded = await cli('review', workflowId, '--record', found);
    assert.equal(recorded.code, 0, recorded.stderr);
    assert.match(recorded.stdout, /verification id recorded, no call made/);
    const result = (await handle.result()) as VerificationResult;
    assert.deepEqual([result.outcome, result.verificationId], ['completed', found]);

    const late = await cli('review', workflowId, '--abandon');
    assert.equal(late.code, 1);
    assert.equal(lines(late.stderr).length, 1, late.stderr);
    assert.equal(late.stderr.trim(), `eligibility: ${workflowId} has closed (completed); it takes no more decisions`);
  });

  it('cancel: ends a running verification as cancelled; supply-input and cancel then say how it ended', async () => {
    const discovery = await pendingDiscovery(h.sandbox);
    const request = v2Intake({ id: `${tag}-c1`, payerId: undefined, discoveryId: discovery.discoveryId });
    const { workflowId } = await startVerification(client(), request, {
      taskQueue: h.taskQueue,
      timing: { ...FAST, pollInitialSeconds: 3600 },
    });
    const cancelled = await cli('cancel', workflowId);
    assert.equal(cancelled.code, 0, cancelled.stderr);
    assert.match(cancelled.stdout, new RegExp(`^${workflowId}: cancel sent`));
    const result = (await client().workflow.getHandle(workflowId).result()) as VerificationResult;
    assert.equal(result.outcome, 'cancelled');

    const [input, again, unknown] = await Promise.all([
      cli('supply-input', workflowId, 'some-run', '--input', '{"a":1}'),
      cli('cancel', workflowId),
      cli('cancel', `verification-${tag}-never-started`),
    ]);
    assert.equal(input.code, 1);
    assert.match(
      input.stderr,
      new RegExp(`^eligibility: ${workflowId} has closed \\(cancelled\\); it takes no more input`),
    );
    assert.equal(again.stderr.trim(), `eligibility: ${workflowId} has closed (cancelled); there is nothing to cancel`);
    assert.match(unknown.stderr, /^eligibility: no workflow verification-/);
  });

  it('webhooks register: registers once; running it again changes nothing', async () => {
    const url = `http://127.0.0.1:9/webhooks/${tag}`;
    const first = await cli('webhooks', 'register', url);
    assert.equal(first.code, 0, first.stderr);
    assert.match(
      first.stdout,
      /^ep_\S+ .* \(registered now; subscribed now: sandbox\.discovery\.updated, sandbox\.run\.pending\)$/m,
    );
    const second = await cli('webhooks', 'register', url);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /\(registered before; nothing changed\)$/m);
    assert.equal(first.stdout.split(' ')[0], second.stdout.split(' ')[0], 'the same endpoint');
  });
});
