import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { parse } from 'csv-parse/sync';
import { createDataConverter } from '../../src/codec/data-converter.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/free-port.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { openStore } from '../../src/store/database.js';
import { launchChromium } from '../../testing/browser.js';
import { eventually } from '../../testing/workflow-harness.js';
import { CLI_ARGV, compiledEnv } from '../../testing/compiled.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Names, dates of birth and member ids of the example file: the values that must never leave encrypted payloads. */
async function examplePhi(): Promise<string[]> {
  const rows = parse<Record<string, string>>(await fs.readFile(path.join(root, 'examples/intake.csv'), 'utf8'), {
    columns: true,
  });
  const values = rows.flatMap((r) => [r.firstName, r.lastName, r.dateOfBirth, r.memberId]);
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
}

/** The outcome the example file is written to produce, row by row (examples/intake.csv). */
const EXPECTED: Record<string, string> = {
  'verification-example-001': 'completed',
  'verification-example-007': 'completed', // its discovery, created in the sandbox, completes by webhook
  'verification-example-008': 'no-coverage',
  'verification-example-009': 'awaiting-input', // ABA opens a run; the run.pending webhook makes it known
  'verification-example-010': 'completed', // v1
};

/** Signs in to the console as the dev operator, as a browser would, and returns one page's HTML. */
async function consolePage(base: string, password: string, page: string): Promise<string> {
  const form = await fetch(`${base}/sign-in`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const signedIn = await fetch(`${base}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, name: 'dev', password }),
  });
  assert.equal(signedIn.status, 303, 'the printed credentials sign in');
  const session = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const response = await fetch(`${base}${page}`, { headers: { cookie: session } });
  assert.equal(response.status, 200, page);
  return response.text();
}

/**
 * Opens a verification in Temporal UI, in a real browser: the UI decrypts its payloads through the codec server, as
 * the stack's console operator (its pass is in the endpoint the UI was started with), and the trail records it.
 */
async function decodesInTemporalUi(out: string): Promise<void> {
  const ui = /Temporal UI: (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  const databaseUrl = /DATABASE_URL=(\S+)/.exec(out)?.[1];
  assert.ok(ui && databaseUrl, `Temporal UI and DATABASE_URL are printed:\n${out}`);
  const workflowId = 'verification-example-001';
  const browser = await launchChromium();
  const store = await openStore(databaseUrl);
  try {
    const page = await browser.newPage();
    await page.goto(`${ui}/namespaces/default/workflows/${workflowId}`);
    const decodes = await eventually(async () => {
      const entries = await new AuditTrail(store).list({ workflowId, action: 'codec.decode' });
      return entries.length > 0 ? entries : undefined;
    }, 30_000);
    assert.deepEqual(
      [...new Set(decodes.map((e) => `${e.actor} ${e.tenant ?? '-'} ${e.outcome}`))],
      ['operator:dev - ok'],
    );
  } finally {
    await browser.close();
    await store.close();
  }
}

// `eligibility dev` brings up its own Temporal dev server (that is what `npm start` does and what is tested here),
// on free ports and a throwaway data folder, so it never meets the suite's shared server or a developer's `.data/`.
describe('eligibility dev (npm start)', function () {
  // Its own Temporal server, a workflow bundle built at start and twelve verifications: beside the whole suite on two
  // cores, well over a minute.
  this.timeout(240_000);

  it('runs the example file to its summary with the expected outcomes and stops cleanly on SIGINT', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-dev-'));
    const env = {
      ...process.env,
      ...compiledEnv(),
      TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
      TEMPORAL_UI_PORT: String(await freePort()),
      SANDBOX_PORT: '0',
      WEBHOOK_PORT: '0',
      INTAKE_PORT: '0',
      CONSOLE_PORT: '0',
      DEV_DATA_DIR: dataDir,
      CODEC_KEY_FILE: path.join(dataDir, 'codec-keys'),
      CODEC_SERVER_PORT: '0',
      DEV_GRACE_SECONDS: '1',
      LOG_LEVEL: 'debug', // as much logging as there is: none of it may carry PHI
    };
    const child = spawn(process.execPath, [...CLI_ARGV, 'dev'], { cwd: root, env });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 180_000;
      while (!out.includes('Ctrl-C stops everything')) {
        if (child.exitCode !== null) assert.fail(`eligibility dev exited early (${child.exitCode}):\n${out}\n${err}`);
        if (Date.now() > deadline) assert.fail(`no summary within 180 s:\n${out}\n${err}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      for (const [workflowId, stage] of Object.entries(EXPECTED)) {
        assert.match(out, new RegExp(`${workflowId}\\s+${stage}\\b`), `${workflowId} should be ${stage}:\n${out}`);
      }
      assert.match(
        out,
        /11\s+12\s+invalid\s+patient\.dateOfBirth/,
        'the invalid row is reported by row, line and field',
      );
      assert.doesNotMatch(out, /13\/01\/1990/, 'the invalid value itself is not printed');
      assert.match(out, /Temporal UI: http:\/\/127\.0\.0\.1:\d+/);
      assert.match(out, /Codec server on http:\/\/127\.0\.0\.1:\d+/);
      const signIn =
        /Operator console: (http:\/\/127\.0\.0\.1:\d+) \(sign in as dev with password (\S+), made for this run\)/.exec(
          out,
        );
      assert.ok(signIn, `the console's address and this run's dev password are printed:\n${out}`);
      const answerPage = await consolePage(signIn[1]!, signIn[2]!, '/runs/verification-example-009');
      assert.match(answerPage, /Send the input/, 'the console offers the pending run of verification-example-009');
      await decodesInTemporalUi(out);

      // Patient data stays private: none of the example's PHI in the logs, nor in any workflow's search attributes.
      const phi = await examplePhi();
      const serverLogs = await fs.readFile(path.join(dataDir, 'eligibility.log'), 'utf8');
      assert.match(serverLogs, /sandbox\.run\.pending/, 'the servers logged the webhook events they handled');
      const logs = out + err + serverLogs;
      assert.deepEqual(
        phi.filter((value) => logs.includes(value)),
        [],
        'PHI values found in the logs of npm start',
      );
      const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
      try {
        // Memos are payloads, encrypted like the rest: read with the stack's keys (a batch's memo holds its counts).
        const dataConverter = await createDataConverter(loadConfig('dev', env).codec);
        const attributes: string[] = [];
        for await (const wf of new Client({ connection, dataConverter }).workflow.list()) {
          attributes.push(JSON.stringify(wf.typedSearchAttributes), JSON.stringify(wf.searchAttributes));
          attributes.push(JSON.stringify(wf.memo ?? {}));
        }
        assert.ok(attributes.length >= 30, `listed ${attributes.length / 3} workflows`);
        assert.deepEqual(
          phi.filter((value) => attributes.some((a) => a.includes(value))),
          [],
          'PHI values found in search attributes or memos',
        );
      } finally {
        await connection.close();
      }
      child.kill('SIGINT');
      assert.equal(await exited, 0, `exit code after SIGINT:\n${out}\n${err}`);
      assert.match(out, /Stopped\./);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
