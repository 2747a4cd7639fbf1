import { DefaultLogger, Runtime } from '@temporalio/worker';
import { startTestTemporal, stopTestTemporal } from './temporal.js';

// Tests fail activities and workflows on purpose; the worker's warnings about them would bury mocha's report.
Runtime.install({ logger: new DefaultLogger('ERROR') });

// One dev server for the whole run. A server that cannot start fails the run with its reason; nothing is skipped.
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    // The first run on a machine fetches the Temporal CLI (seconds), or builds it with Go where nothing can be fetched.
    this.timeout(20 * 60_000);
    await startTestTemporal();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30_000);
    await stopTestTemporal();
  },
};
