import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../src/config.js';
import { findTemporalCli } from '../apps/dev/temporal-cli.js';
import { startDevServer, type DevServer } from '../apps/dev/temporal-dev-server.js';
import { testDataConverter } from './codec.js';

/**
 * The one dev server of a test run. The main mocha process starts it (a global fixture) and tells the test processes
 * where it is through the environment; each test process connects to it once.
 */
export interface TestTemporal {
  server: Pick<DevServer, 'address' | 'namespace'>;
  connection: Connection;
  nativeConnection: NativeConnection;
  /** Encrypts with this run's keys (see `testCodec`), like every client of the project. */
  client: Client;
}

const ADDRESS_VARIABLE = 'ELIGIBILITY_TEST_TEMPORAL_ADDRESS';
const NAMESPACE_VARIABLE = 'ELIGIBILITY_TEST_TEMPORAL_NAMESPACE';

let server: DevServer | undefined;
let current: TestTemporal | undefined;

export function testTemporal(): TestTemporal {
  if (!current)
    throw new Error(
      "The test run has no Temporal dev server: the run's files import nothing that needs one (testing/needs.ts), " +
        'or it failed to start (see the root hook error).',
    );
  return current;
}

/** What a process started by a test (the CLI, a worker) needs to reach the run's server and `taskQueue`. */
export function temporalEnv(taskQueue: string): Record<string, string> {
  const { address, namespace } = testTemporal().server;
  return { TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace, TEMPORAL_TASK_QUEUE: taskQueue };
}

/** Whether the run's main process started a dev server for the test processes. */
export const temporalStarted = () => Boolean(process.env[ADDRESS_VARIABLE]);

/** In the main process: starts the run's dev server. */
export async function startTestTemporalServer(): Promise<void> {
  const { temporal } = loadConfig('dev');
  const cliPath = await findTemporalCli(temporal);
  server = await startDevServer({ cliPath, namespace: temporal.namespace });
  process.env[ADDRESS_VARIABLE] = server.address;
  process.env[NAMESPACE_VARIABLE] = server.namespace;
  console.log(`  (Temporal dev server for this run: ${server.address}, CLI ${cliPath})`);
}

export async function stopTestTemporalServer(): Promise<void> {
  await server?.stop();
  server = undefined;
}

/** In a test process: connects to the run's dev server, once. */
export async function connectTestTemporal(): Promise<TestTemporal> {
  if (current) return current;
  const address = process.env[ADDRESS_VARIABLE];
  const namespace = process.env[NAMESPACE_VARIABLE];
  if (!address || !namespace)
    throw new Error(`${ADDRESS_VARIABLE} is not set: the global setup did not start a server`);
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  const client = new Client({ connection, namespace, dataConverter: testDataConverter() });
  current = { server: { address, namespace }, connection, nativeConnection, client };
  return current;
}

export async function disconnectTestTemporal(): Promise<void> {
  if (!current) return;
  const { connection, nativeConnection } = current;
  current = undefined;
  await nativeConnection.close();
  await connection.close();
}
