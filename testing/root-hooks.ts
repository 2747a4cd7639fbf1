import { DefaultLogger, Runtime } from '@temporalio/worker';
import { variables } from '../src/config-variables.js';
import { bundleWorkflowFile, removeWorkflowFile } from './bundle.js';
import { compileForTests } from './compiled.js';
import { ensureMachine } from './machine.js';
import { startTestDatabase, stopTestDatabase } from './database.js';
import { connectTestTemporal, startTestTemporalServer, stopTestTemporalServer } from './temporal.js';

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
 * Once per run, in mocha's main process: the one dev server, the one workflow bundle and the one PostgreSQL, which every test process
 * shares (mocha runs files in parallel, `.mocharc.json`). A server that cannot start fails the run with its reason;
 * nothing is skipped. The first run on a machine fetches the Temporal CLI (seconds), or builds it with Go.
 */
export async function mochaGlobalSetup(): Promise<void> {
  await ensureMachine({ databaseGiven: Boolean(process.env.ELIGIBILITY_TEST_DATABASE_URL) });
  await Promise.all([startTestTemporalServer(), bundleWorkflowFile(), startTestDatabase(), compileForTests()]);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await Promise.all([stopTestTemporalServer(), removeWorkflowFile(), stopTestDatabase()]);
}

export const mochaHooks = {
  /** Each test process connects to the run's server once; in parallel mode this runs before every file. */
  async beforeAll(this: Mocha.Context) {
    this.timeout(30_000);
    await connectTestTemporal();
  },
};
