import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { loadConfig } from '../../src/config.js';
import { findTemporalCli } from '../../apps/dev/temporal-cli.js';
import { startDevServer, type DevServer } from '../../apps/dev/temporal-dev-server.js';
import { testDataConverter } from './codec.js';

/** The one dev server of a test run, started by the root hook and shared by every suite. */
export interface TestTemporal {
  server: DevServer;
  connection: Connection;
  nativeConnection: NativeConnection;
  /** Encrypts with this run's keys (see `testCodec`), like every client of the project. */
  client: Client;
}

let current: TestTemporal | undefined;

export function testTemporal(): TestTemporal {
  if (!current) throw new Error('The Temporal dev server of the test run is not running (see the root hook error).');
  return current;
}

export async function startTestTemporal(): Promise<TestTemporal> {
  const { temporal } = loadConfig();
  const cliPath = await findTemporalCli(temporal);
  const server = await startDevServer({ cliPath, namespace: temporal.namespace });
  const connection = await Connection.connect({ address: server.address });
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const client = new Client({ connection, namespace: server.namespace, dataConverter: testDataConverter() });
  current = { server, connection, nativeConnection, client };
  console.log(`  (Temporal dev server for this run: ${server.address}, CLI ${cliPath})`);
  return current;
}

export async function stopTestTemporal(): Promise<void> {
  if (!current) return;
  const { server, connection, nativeConnection } = current;
  current = undefined;
  await nativeConnection.close();
  await connection.close();
  await server.stop();
}
