/**
 * `npm run bench:audit [-- --count 2000 --kill-rounds 10]`: what the audit trail costs and whether it can lose an entry.
 * 1. Intake start latency with the trail on and off, side by side in one run: two intake APIs over one Temporal dev
 *    server and one PostgreSQL, requests alternating between them; prints p50 / p95 of each and p95 on ÷ off.
 * 2. Kill -9 right after an answer: an `eligibility intake` process is killed the moment it has answered a start;
 *    its entry must already be in the trail. Prints the entries found of the answers given.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { AuditTrail } from '../../src/audit/audit-trail.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { openStore } from '../../src/store/database.js';
import { table } from '../../src/text-format.js';
import { numberArg, startBenchStack } from '../bench-stack.js';
import { v2Intake } from '../../testing/fixtures.js';
import { startThrowawayPostgres } from '../../testing/postgres.js';

const intake = (id: string) => v2Intake({ id });

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function run() {
  const count = numberArg('count', 2000);
  const killRounds = numberArg('kill-rounds', 10);
  const stack = await startBenchStack();
  const postgres = await startThrowawayPostgres();
  const store = await openStore(postgres.url);
  const apiKey = randomBytes(24).toString('hex');
  const config = loadConfig('intake', { INTAKE_API_KEY: apiKey, LOG_LEVEL: 'silent' });
  const logger = createLogger(config);
  const trail = new AuditTrail(store);
  const apis = {
    on: createIntakeApi({ config, client: stack.client, taskQueue: stack.taskQueue, logger, access: { audit: trail } }),
    off: createIntakeApi({ config, client: stack.client, taskQueue: stack.taskQueue, logger }),
  };
  const times: Record<'on' | 'off', number[]> = { on: [], off: [] };
  const runId = randomBytes(4).toString('hex');
  try {
    const start = async (which: 'on' | 'off', i: number) => {
      const began = performance.now();
      const response = await apis[which].inject({
        method: 'POST',
        url: '/verifications',
        headers: { 'x-api-key': apiKey },
        payload: intake(`audit-${runId}-${which}-${i}`),
      });
      if (response.statusCode !== 202) throw new Error(`start answered ${response.statusCode}: ${response.body}`);
      return performance.now() - began;
    };
    for (let i = 0; i < 20; i++) await Promise.all([start('on', -i - 1), start('off', -i - 1)]);
    for (let i = 0; i < count; i++) {
      // Alternating, so both see the same server and machine at the same moments.
      for (const which of i % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        times[which].push(await start(which, i));
      }
    }
    const rows = (['off', 'on'] as const).map((which) => {
      const sorted = [...times[which]].sort((a, b) => a - b);
      return [`trail ${which}`, percentile(sorted, 0.5).toFixed(1), percentile(sorted, 0.95).toFixed(1)];
    });
    const p95 = (which: 'on' | 'off') =>
      percentile(
        [...times[which]].sort((a, b) => a - b),
        0.95,
      );
    console.log(`\nIntake start latency, ${count} starts each, alternating (ms):`);
    console.log(table(['', 'p50', 'p95'], rows));
    console.log(`p95 with the trail ÷ without: ${(p95('on') / p95('off')).toFixed(2)} (target ≤ 1.1)`);

    // 2. kill -9 right after the answer.
    let answered = 0;
    let recorded = 0;
    for (let round = 0; round < killRounds; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/main.ts', 'intake'], {
        env: {
          ...process.env,
          ...stack.workerEnv,
          INTAKE_API_KEY: apiKey,
          INTAKE_PORT: '0',
          DATABASE_URL: postgres.url,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const address = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          const match = /listening on (http:\/\/\S+)/.exec(line);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`eligibility intake exited (${code}) before listening`)));
      });
      const response = await fetch(`${address}/verifications`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(intake(`audit-${runId}-kill-${round}`)),
      });
      child.kill('SIGKILL');
      if (response.status === 202) answered += 1;
      await new Promise((resolve) => child.once('exit', resolve));
      const { workflowId } = (await response.json()) as { workflowId: string };
      recorded += (await trail.list({ workflowId, action: 'verification.start' })).length;
    }
    console.log(
      `\nKilled with SIGKILL right after answering: ${recorded} entries of ${answered} answers (target: all)`,
    );
    const verified = await trail.verify();
    console.log(
      `audit verify: ${verified.ok ? `holds, ${verified.entries} entries` : `broken at ${verified.brokenAt}`}`,
    );
  } finally {
    await apis.on.close();
    await apis.off.close();
    await store.close();
    await postgres.stop();
    await stack.stop();
  }
}

run().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
