import net from 'node:net';
import { Connection } from '@temporalio/client';
import { dynamicConfigFile } from '../../apps/dev/temporal-release.js';
import type { PostgresCluster } from '../../testing/postgres.js';
import { SQL_PLUGIN, TEMPORAL_DATABASES } from './schema.js';
import type { ProcessSpec } from './supervised-process.js';

/** The four services of a Temporal cluster, each its own process here, as each would be its own container or pod. */
export const TEMPORAL_SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
export type TemporalService = (typeof TEMPORAL_SERVICES)[number];

export interface TemporalPorts {
  frontendGrpc: number;
  frontendHttp: number;
  frontendMembership: number;
  historyGrpc: number;
  historyMembership: number;
  matchingGrpc: number;
  matchingMembership: number;
  workerGrpc: number;
  workerMembership: number;
}

/**
 * The server's configuration as environment variables of the configuration template embedded in `temporal-server`
 * 1.32, which renders them into its YAML config when it starts with no config file: the same variables, same template,
 * as the `temporalio/server` image that docker-compose runs, so the two cannot configure the server differently.
 * Dynamic config is the project's one file.
 */
export function serverEnv(pg: PostgresCluster, ports: TemporalPorts): Record<string, string> {
  const [main, visibility] = TEMPORAL_DATABASES;
  return {
    DB: SQL_PLUGIN,
    DB_PORT: String(pg.port),
    POSTGRES_SEEDS: '127.0.0.1',
    POSTGRES_USER: pg.user,
    POSTGRES_PWD: pg.password,
    DBNAME: main.database,
    VISIBILITY_DBNAME: visibility.database,
    // Four processes at up to 30 connections each stay under the cluster's max_connections.
    SQL_MAX_CONNS: '20',
    SQL_MAX_IDLE_CONNS: '5',
    SQL_VIS_MAX_CONNS: '10',
    SQL_VIS_MAX_IDLE_CONNS: '2',
    NUM_HISTORY_SHARDS: '4',
    BIND_ON_IP: '127.0.0.1',
    TEMPORAL_BROADCAST_ADDRESS: '127.0.0.1',
    FRONTEND_GRPC_PORT: String(ports.frontendGrpc),
    FRONTEND_HTTP_PORT: String(ports.frontendHttp),
    FRONTEND_MEMBERSHIP_PORT: String(ports.frontendMembership),
    HISTORY_GRPC_PORT: String(ports.historyGrpc),
    HISTORY_MEMBERSHIP_PORT: String(ports.historyMembership),
    MATCHING_GRPC_PORT: String(ports.matchingGrpc),
    MATCHING_MEMBERSHIP_PORT: String(ports.matchingMembership),
    WORKER_GRPC_PORT: String(ports.workerGrpc),
    WORKER_MEMBERSHIP_PORT: String(ports.workerMembership),
    DYNAMIC_CONFIG_FILE_PATH: dynamicConfigFile,
    TEMPORAL_ALLOW_NO_AUTH: 'true',
    LOG_LEVEL: 'warn',
  };
}

/** Resolves once something accepts connections on the port. */
async function listening(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port, timeout: 1000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`nothing answers on port ${port}`));
    });
    socket.once('error', (err) => reject(err));
  });
}

/** The frontend answers a gRPC call (not only a TCP connect). */
export async function frontendServing(address: string): Promise<void> {
  const connection = await Connection.connect({ address, connectTimeout: 1000 });
  try {
    await connection.workflowService.getSystemInfo({});
  } finally {
    await connection.close();
  }
}

/** How each service runs: `temporal-server start --service <name>` with the shared environment. */
export function serviceSpec(
  service: TemporalService,
  serverBinary: string,
  env: Record<string, string>,
  ports: TemporalPorts,
): ProcessSpec {
  const grpcPort = { history: ports.historyGrpc, matching: ports.matchingGrpc, worker: ports.workerGrpc };
  return {
    name: service,
    command: serverBinary,
    args: ['start', '--service', service],
    env,
    readyTimeoutMs: 90_000,
    ready:
      service === 'frontend'
        ? () => frontendServing(`127.0.0.1:${ports.frontendGrpc}`)
        : () => listening(grpcPort[service]),
  };
}
