import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import { loadConfig } from '../../src/config.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { missingSearchAttribute } from '../../src/temporal/errors.js';
import { setUpNamespace } from '../../src/temporal/namespace-setup.js';
import { startVerification } from '../../src/temporal/start-verification.js';
import { listVerifications } from '../../src/temporal/list-verifications.js';
import { reportError } from '../../apps/cli/errors.js';
import { searchAttributeKeys } from '../../workflows/shared/search-attributes.js';
import { runCli } from '../../testing/run-cli.js';
import { TEST_INTAKE_KEY, v2Intake } from '../../testing/fixtures.js';
import { testTemporal } from '../../testing/temporal.js';

const ALL = searchAttributeKeys.map((key) => key.name);

describe('namespace setup (eligibility setup), against a namespace the project has never seen', function () {
  this.timeout(120_000);
  const fresh = () => `setup-${randomUUID().slice(0, 8)}`;

  it('creates the namespace and registers every search attribute of the one list, then has nothing to do', async () => {
    const { connection } = testTemporal();
    const namespace = fresh();
    const first = await setUpNamespace(connection, namespace);
    assert.deepEqual([first.createdNamespace, first.added, first.present, first.conflicts], [true, ALL, [], []]);
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    assert.deepEqual(
      ALL.filter((name) => !(name in (customAttributes ?? {}))),
      [],
    );
    const second = await setUpNamespace(connection, namespace);
    assert.deepEqual([second.createdNamespace, second.added, second.present], [false, [], ALL]);
  });

  it('the command says what it did, prints the dynamic config it cannot set, then says nothing to do', async () => {
    const namespace = fresh();
    const env = { TEMPORAL_ADDRESS: testTemporal().server.address, TEMPORAL_NAMESPACE: namespace };
    const first = await runCli(['setup'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`namespace ${namespace}: created`));
    assert.match(first.stdout, new RegExp(`search attributes added: ${ALL.join(', ')}`));
    assert.match(first.stdout, /matching\.enableFairness/);
    const second = await runCli(['setup'], env);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`namespace ${namespace}: nothing to do`));
    assert.doesNotMatch(second.stdout, /added|created/);
  });

  describe('a start refused for a missing search attribute names it and the command', () => {
    let namespace: string;
    let client: Client;

    before(async () => {
      const { connection } = testTemporal();
      namespace = fresh();
      // A namespace without the project's registrations: only the namespace, as a new cluster's operator makes it.
      await setUpNamespace(connection, namespace, { keys: [] });
      client = new Client({ connection, namespace });
    });

    it('from the library: the attribute', async () => {
      const refused = await startVerification(client, v2Intake(), { taskQueue: 'q' }).catch((err: unknown) => err);
      assert.ok(ALL.includes(missingSearchAttribute(refused) ?? ''), String(refused));
    });

    it('a list by stage (`eligibility list --stage failed`): the attribute and `eligibility setup`, not "invalid"', async () => {
      const refused = await listVerifications(client, { stage: 'failed', limit: 10 }).catch((err: unknown) => err);
      assert.equal(missingSearchAttribute(refused), 'VerificationStage', String(refused));
      assert.match(
        reportError(refused, () => undefined).line ?? '',
        /^the Temporal namespace has no search attribute VerificationStage: run `eligibility setup`/,
      );
    });

    it('from the intake API: 500 namespace_not_ready naming the attribute and `eligibility setup`', async () => {
      const config = loadConfig('intake', { INTAKE_API_KEY: TEST_INTAKE_KEY, LOG_LEVEL: 'silent' });
      const api = createIntakeApi({ config, client, taskQueue: 'q', logger: createLogger(config) });
      try {
        const response = await api.inject({
          method: 'POST',
          url: '/verifications',
          headers: { 'x-api-key': TEST_INTAKE_KEY },
          payload: v2Intake(),
        });
        assert.equal(response.statusCode, 500, response.body);
        const answer = response.json<{ error: string; message: string }>();
        assert.equal(answer.error, 'namespace_not_ready');
        assert.match(answer.message, /has no search attribute [A-Za-z]+: run `eligibility setup`/);
      } finally {
        await api.close();
      }
    });

    it('from the CLI: one line naming the attribute and `eligibility setup`', async () => {
      const env = { TEMPORAL_ADDRESS: testTemporal().server.address, TEMPORAL_NAMESPACE: namespace };
      const file = path.join(os.tmpdir(), `setup-test-${randomUUID()}.json`);
      await fs.writeFile(file, JSON.stringify(v2Intake()));
      const run = await runCli(['start', '--file', file], env).finally(() => fs.rm(file, { force: true }));
      assert.equal(run.code, 1);
      assert.match(run.stderr, /has no search attribute [A-Za-z]+: run `eligibility setup`/);
    });
  });
});
