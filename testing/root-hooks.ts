import module from 'node:module';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { variables } from '../src/config-variables.js';
import { bundleWorkflowFile, removeWorkflowFile } from './bundle.js';
import { compileForTests } from './compiled.js';
import { startTestDatabase, stopTestDatabase } from './database.js';
import { ensureMachine, MachineSetupError } from './machine.js';
import { needsOf } from './needs.js';
import { connectTestTemporal, startTestTemporalServer, stopTestTemporalServer, temporalStarted } from './temporal.js';

// V8's code cache for what each test process loads after this file (the product, the SDK): less CPU per process.
module.enableCompileCache?.();

// No test binds a default port: every service a test starts, in this process or in a child that inherits its
// environment, takes a free port unless the test names one (two runs, or a developer's `npm start`, can then share
// the machine). The dev server's UI port is the exception: it is only ever set by the test that starts `dev`.
const SERVICE_PORTS = Object.keys(variables).filter(
  (name) => /_PORT$/.test(name) && !/^(TEMPORAL_UI|WORKER_CORE_METRICS)_/.test(name),
);
for (const name of SERVICE_PORTS) process.env[name] ??= '0';

// Tests fail activities and workflows on purpose; the worker's warnings about them would bury mocha's report.
Runtime.install({ logger: new DefaultLogger('ERROR') });

/**
 * Once per run, in mocha's main process: what the run's files need of the one dev server, the one workflow bundle,
 * the one PostgreSQL and the one compiled build, which every test process shares (mocha runs files in parallel,
 * `.mocharc.json`); files of pure unit tests need none of them (testing/needs.ts). A part that cannot start fails the
 * run with its reason; nothing is skipped. The first run on a machine fetches the Temporal CLI (seconds).
 */
export async function mochaGlobalSetup(): Promise<void> {
  const needs = needsOf();
  const databaseGiven = Boolean(process.env.ELIGIBILITY_TEST_DATABASE_URL);
  await ensureMachine({ database: needs.database && !databaseGiven, browser: needs.browser }).catch((err: unknown) => {
    if (!(err instanceof MachineSetupError)) throw err;
    // What to install, in one line: nothing has started, so there is nothing to stop.
    console.error(err.message);
    process.exit(1);
  });
  await Promise.all([
    needs.temporal && startTestTemporalServer(),
    needs.bundle && bundleWorkflowFile(),
    needs.database && startTestDatabase(),
    needs.compiled && compileForTests(),
  ]);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await Promise.all([stopTestTemporalServer(), removeWorkflowFile(), stopTestDatabase()]);
}

export const mochaHooks = {
  /** Each test process connects to the run's server once, if the run has one; in parallel mode this runs before every file. */
  async beforeAll(this: Mocha.Context) {
    this.timeout(30_000);
    if (temporalStarted()) await connectTestTemporal();
  },
};
