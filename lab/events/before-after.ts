/**
 * `cd lab && npm run bench:events-before-after [-- --before b54f40c] [--rate 20] [--seconds 60]`: outbound events of
 * the code before a change (a build of `--before`) and of this checkout as it is now, one after the other in one run
 * (lab/README.md). Each build gets a stack of its own, the same for both: a Temporal dev server, the sandbox, a
 * throwaway PostgreSQL (migrated by the build's own processes), the build's `eligibility worker` and `eligibility
 * intake` (event endpoints are made through it), and receivers in this process that verify every delivery with
 * `standardwebhooks`. Verifications start through an intake API of this checkout in this process, with the suite's
 * short timing (they complete a second after creation), the same yardstick for both.
 *
 * On each: `--rate` verifications a second for `--seconds` of a tenant with no endpoint (events off), then of a tenant
 * with an endpoint that answers beside one that never does (events on): stage change (the event's `timestamp`) →
 * first arrival, events lost, and verifications completed a second, on ÷ off. Exits 0 when the bench ran (a missed
 * target is a figure), 2 when it could not run.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { createIntakeApi } from '../../apps/intake-api/api.js';
import { requireIntakeApiKey } from '../../apps/intake-api/api-key.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import { loadConfig } from '../../src/config.js';
import { freePort } from '../../src/free-port.js';
import { createLogger } from '../../src/logging.js';
import type { Tables } from '../../src/store/tables.js';
import { table } from '../../src/text-format.js';
import { startThrowawayPostgres } from '../../testing/postgres.js';
import { loadSandboxConfig } from '../../sandbox/config.js';
import { createSandbox } from '../../sandbox/server.js';
import { numberArg, WORKER_READY } from '../bench-stack.js';
import { buildAtCommit, buildWorkingTree, removeBuild, type Build } from '../batch/builds.js';
import { answers, startRole } from '../batch/roles.js';
import { Closers } from '../closers.js';
import { SUITE_TIMING } from '../faults/stack.js';
import { RestartableTemporal } from '../faults/temporal-server.js';
import { connectStackClient, stackEnv } from '../stack-env.js';
import { latencyScenario, type LatencyFigures } from './latency.js';
import { completion, startPaced, type Completion, type Spread } from './paced.js';

const t0 = Date.now();
const log = (line: string) => console.log(`[${String(Math.round((Date.now() - t0) / 1000)).padStart(5)} s] ${line}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

interface SideFigures {
  label: string;
  off: Completion & { achievedRate: number; refused: number };
  on: LatencyFigures;
}

/** One build's stack, its events-off run and its events-on run, then the stack thrown away. */
async function side(build: Build, label: string, rate: number, seconds: number): Promise<SideFigures> {
  log(`${label}: starting its stack (load average ${loadAverage()})`);
  const closers = new Closers((err) => log(`  teardown: ${(err as Error).message}`));
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'eligibility-events-ba-'));
  closers.add(() => fs.rm(dataDir, { recursive: true, force: true }));
  try {
    const temporal = await RestartableTemporal.start(await findTemporalCli(loadConfig('dev').temporal), dataDir);
    closers.add(() => temporal.down());
    const env = stackEnv({
      temporalAddress: temporal.address,
      sandboxPort: await freePort(),
      name: 'events-ba',
      maxRps: 10_000,
      sandboxRate: 10_000,
    });
    const postgres = await startThrowawayPostgres();
    closers.add(() => postgres.stop());
    env.DATABASE_URL = postgres.url;
    const config = loadConfig('dev', { ...process.env, ...env });
    const sandbox = await createSandbox(loadSandboxConfig({ ...process.env, ...env }));
    await sandbox.listen();
    closers.add(() => sandbox.close());
    const temporalClient = await connectStackClient(config);
    closers.add(() => temporalClient.close());
    const { client } = temporalClient;

    const worker = await startRole(build.bin, 'worker', { ...env, WORKER_HTTP_PORT: String(await freePort()) }, (out) =>
      out.includes(WORKER_READY),
    );
    closers.add(() => worker.stop());
    const intakePort = await freePort();
    const endpointsIntake = await startRole(
      build.bin,
      'intake',
      { ...env, INTAKE_HOST: '127.0.0.1', INTAKE_PORT: String(intakePort) },
      answers(`http://127.0.0.1:${intakePort}/healthz`),
    );
    closers.add(() => endpointsIntake.stop());
    // Read with plain SQL, never migrated from here: the schema is the build's.
    const pool = new pg.Pool({ connectionString: postgres.url, max: 2 });
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
    closers.add(() => db.destroy());
    // The starts' intake API: this checkout's, silent, with the suite's timing, on both sides.
    const starter = createIntakeApi({
      config,
      client,
      taskQueue: config.temporal.taskQueue,
      logger: createLogger(loadConfig('dev', { ...process.env, ...env, LOG_LEVEL: 'silent' })),
      timing: SUITE_TIMING,
    });
    const starterUrl = (await starter.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    closers.add(() => starter.close());
    const apiKey = requireIntakeApiKey(config.intake);
    const intake = { url: starterUrl, apiKey };
    log(`  worker and intake API of ${build.name} up; Temporal ${temporal.address}`);

    const run = randomBytes(3).toString('hex');
    log(`  [events off] ${rate}/s for ${seconds} s, a tenant with no endpoint`);
    const paced = await startPaced(intake, { tenant: `off-${run}`, prefix: `off-${run}`, rate, seconds });
    const off = { ...(await completion(client, paced.ids)), achievedRate: paced.achievedRate, refused: paced.refused };
    log(`  events off: ${off.completed} completed, ${off.perSecond.toFixed(1)}/s`);
    log(`  [events on] ${rate}/s for ${seconds} s, an endpoint that answers beside one that never does`);
    const on = await latencyScenario(
      {
        client,
        intake,
        endpoints: { intake: { url: `http://127.0.0.1:${intakePort}`, apiKey } },
        db,
        workerOutput: () => worker.output(),
      },
      { rate, seconds, sampleEvery: 10 },
      log,
    );
    log(`  events on: ${on.completion.completed} completed, ${on.completion.perSecond.toFixed(1)}/s`);
    for (const note of on.missingNotes) log(`  not delivered: ${note}`);
    return { label, off, on };
  } finally {
    await closers.close();
  }
}

const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : '-');
const pair = (a: Spread) => `${ms(a.p50)} / ${ms(a.p99)}`;
const ratio = (s: SideFigures) => s.on.completion.perSecond / s.off.perSecond;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

function report(sides: SideFigures[], rate: number, seconds: number, loads: string[]) {
  const col = (f: (s: SideFigures) => string) => sides.map(f);
  const targetOf = (f: (s: SideFigures) => boolean, text: string) =>
    `${text} (${sides.map((s) => `${s.label.split(' ')[0]} ${met(f(s))}`).join(', ')})`;
  console.log(
    `\n${rate} verifications/s for ${seconds} s on each side; events on: an endpoint that answers beside one that never does`,
  );
  console.log(
    table(
      ['measure', ...sides.map((s) => s.label), 'target'],
      [
        [
          'stage change → first arrival, p50',
          ...col((s) => ms(s.on.fromTimestamp.p50)),
          targetOf((s) => s.on.fromTimestamp.p50 <= 200, '≤ 200 ms'),
        ],
        ['  p99', ...col((s) => ms(s.on.fromTimestamp.p99)), targetOf((s) => s.on.fromTimestamp.p99 <= 1000, '≤ 1 s')],
        ['  max (events)', ...col((s) => `${ms(s.on.fromTimestamp.max)} (${s.on.fromTimestamp.n})`), ''],
        ['  stage → first attempt began, p50 / p99 (sample)', ...col((s) => pair(s.on.parts.toAttempt)), ''],
        ['  attempt began → arrived, p50 / p99 (sample)', ...col((s) => pair(s.on.parts.toArrival)), ''],
        ['events lost (not arrived 2 min after the last close)', ...col((s) => String(s.on.missing)), '0'],
        [
          'signatures verified (live endpoint)',
          ...col((s) => `${s.on.signatures.verified} of ${s.on.signatures.verified + s.on.signatures.refused}`),
          'all',
        ],
        [
          'verifications completed/s, events on ÷ off',
          ...col(
            (s) => `${ratio(s).toFixed(2)} (${s.on.completion.perSecond.toFixed(1)} ÷ ${s.off.perSecond.toFixed(1)}/s)`,
          ),
          targetOf((s) => ratio(s) >= 0.9, '≥ 0.9'),
        ],
        [
          'started → closed p50 / p99, on; off',
          ...col((s) => `${pair(s.on.completion.startToClose)}; ${pair(s.off.startToClose)}`),
          '',
        ],
        [
          'starts a second achieved, on; off',
          ...col((s) => `${s.on.achievedRate.toFixed(1)}; ${s.off.achievedRate.toFixed(1)}`),
          `${rate}`,
        ],
        [
          'starts refused; verifications failed',
          ...col((s) => `${s.on.refusedStarts + s.off.refused}; ${s.on.completion.failed + s.off.failed}`),
          '0; 0',
        ],
        ['never-answering endpoint: requests that reached it', ...col((s) => String(s.on.stuckAttempts)), ''],
        [
          'delivery log (live): attempts by outcome',
          ...col((s) =>
            Object.entries(s.on.outbox.live)
              .map(([k, n]) => `${n} ${k}`)
              .join(', '),
          ),
          '',
        ],
        [
          'rows in event_outbox after: live / never answers',
          ...col((s) => `${s.on.outbox.leftLive} / ${s.on.outbox.leftDead}`),
          '',
        ],
      ],
    ),
  );
  console.log(
    `\nload average (1, 5, 15 min): at the start ${loads[0]}; at the end ${loads[1]}; ${os.cpus().length} cores`,
  );
}

async function run(): Promise<number> {
  const rate = numberArg('rate', 20);
  const seconds = numberArg('seconds', 60);
  const at = process.argv.indexOf('--before');
  const commit = at >= 0 ? process.argv[at + 1]! : 'b54f40c';
  const loads = [loadAverage()];
  log(`building ${commit} and the working tree (load average ${loads[0]})`);
  const before = await buildAtCommit(commit);
  const after = await buildWorkingTree();
  log('built');
  try {
    const sides = [
      await side(before, `before (${commit})`, rate, seconds),
      await side(after, 'after (this checkout)', rate, seconds),
    ];
    loads.push(loadAverage());
    report(sides, rate, seconds, loads);
    return 0;
  } finally {
    await removeBuild(before);
    await removeBuild(after);
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
