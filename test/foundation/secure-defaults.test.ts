import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { ConfigError, loadConfig } from '../../src/config.js';
import { secretsEqual } from '../../src/contract/secrets-equal.js';
import { devIntakeKey } from '../../apps/dev/intake-key.js';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { createLogger } from '../../src/logging.js';
import { lines, runCli } from '../../testing/run-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function configProblem(env: Record<string, string>): string[] {
  try {
    loadConfig('dev', env);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    return err.problems.map((p) => p.variable);
  }
  return [];
}

describe('secure defaults', () => {
  it('refuses secrets shorter than 32 characters, naming the variable and never the value', () => {
    for (const variable of ['WEBHOOK_SIGNING_SECRET', 'INTAKE_API_KEY', 'CODEC_TOKEN_SECRET']) {
      assert.deepEqual(configProblem({ [variable]: 'x' }), [variable]);
      assert.deepEqual(configProblem({ [variable]: 's'.repeat(31) }), [variable]);
      assert.deepEqual(configProblem({ [variable]: 's'.repeat(32) }), []);
    }
    assert.throws(
      () => loadConfig('dev', { WEBHOOK_SIGNING_SECRET: 'short-secret' }),
      (err: Error) =>
        /WEBHOOK_SIGNING_SECRET: must be at least 32/.test(err.message) && !/short-secret/.test(err.message),
    );
  });

  it('has no default intake key: the intake API refuses to start without one, also with NODE_ENV=production', () => {
    for (const env of [{}, { NODE_ENV: 'production' }]) {
      const config = loadConfig('intake', { ...env, LOG_LEVEL: 'silent' });
      assert.equal(config.intake.apiKey, undefined);
      const connection = Connection.lazy({ address: '127.0.0.1:1' });
      assert.throws(
        () =>
          createIntakeApi({ config, client: new Client({ connection }), taskQueue: 'q', logger: createLogger(config) }),
        (err: unknown) => err instanceof ConfigError && err.problems.some((p) => p.variable === 'INTAKE_API_KEY'),
      );
      void connection.close();
    }
  });

  it('`eligibility intake` without INTAKE_API_KEY exits with one line naming it, before connecting', async () => {
    for (const env of [{}, { NODE_ENV: 'production' }] as Record<string, string>[]) {
      // An address nobody serves: the key must be refused before any connection attempt.
      const run = await runCli(['intake'], { ...env, INTAKE_API_KEY: '', TEMPORAL_ADDRESS: '127.0.0.1:1' });
      assert.equal(run.code, 1);
      assert.equal(lines(run.stderr).length, 1, run.stderr);
      assert.match(run.stderr, /INTAKE_API_KEY: is required/);
    }
  });

  it('compares secrets in constant time through one helper', async () => {
    assert.equal(secretsEqual('a-secret', 'a-secret'), true);
    assert.equal(secretsEqual('a-secreT', 'a-secret'), false);
    assert.equal(secretsEqual('a', 'a-secret'), false, 'a shorter value');
    assert.equal(secretsEqual('a-secret-and-more', 'a-secret'), false, 'a longer value');
    assert.equal(secretsEqual(undefined, 'a-secret'), false);
    assert.equal(secretsEqual('', ''), true);
    // No other file compares secrets itself: every comparison goes through secretsEqual.
    const users: string[] = [];
    for (const dir of ['src', 'activities', 'workers', 'workflows', 'apps', 'sandbox']) {
      for (const file of await fs.readdir(path.join(root, dir), { recursive: true })) {
        if (!file.endsWith('.ts')) continue;
        const text = await fs.readFile(path.join(root, dir, file), 'utf8');
        if (text.includes('timingSafeEqual')) users.push(path.join(dir, file));
      }
    }
    assert.deepEqual(users, ['src/contract/secrets-equal.ts']);
  });

  it('the dev stack makes its intake key once, keeps it for its owner only, and lets INTAKE_API_KEY win', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'intake-key-'));
    try {
      const first = await devIntakeKey(dir, undefined);
      assert.ok(first.key.length >= 32);
      assert.equal(first.file, path.join(dir, 'intake-api-key'));
      assert.equal((await fs.stat(first.file)).mode & 0o777, 0o600);
      assert.deepEqual(await devIntakeKey(dir, undefined), first, 'the same key on the next run');
      const configured = 'c'.repeat(40);
      assert.deepEqual(await devIntakeKey(dir, configured), { key: configured, file: undefined });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
