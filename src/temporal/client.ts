import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type WorkflowClientInterceptor,
} from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import type { TemporalConfig } from '../config.js';
import { temporalConnectionOptions, type ConnectionSettings } from './connection-options.js';

/** A Temporal client and the connection under it; `close()` ends both. */
export interface TemporalClient {
  client: Client;
  close(): Promise<void>;
}

/** The server did not answer at the configured address: the message names it, so a wrong address shows at once. */
export class TemporalUnreachableError extends Error {
  override name = 'TemporalUnreachableError';
  constructor(
    readonly address: string,
    cause: unknown,
  ) {
    super(`cannot reach the Temporal server at ${address} (is it running? TEMPORAL_ADDRESS or the profile sets it)`, {
      cause,
    });
  }
}

/**
 * How a client process behaves while Temporal is down. With the defaults, grpc-js backs reconnection off up to two
 * minutes, so after an outage an intake API would go on answering 503 long after the server was back; and the SDK's
 * retry interceptor retries an unavailable server 10 times over about 20 s, so each of those requests would hang that
 * long before failing. Here reconnection is tried at least every second, and a call to an unreachable server
 * gives up after 5 attempts (about 2 s of backoff): an edge answers 503 quickly during an outage and serves again
 * within about a second of the server's return. Retries that matter (a batch, a caller honouring Retry-After) happen
 * above this, where they can be reported.
 */
export const OUTAGE_BEHAVIOUR = {
  channelArgs: {
    'grpc.initial_reconnect_backoff_ms': 250,
    'grpc.max_reconnect_backoff_ms': 1000,
  },
  interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 5 }))],
};

export interface ConnectClientOptions {
  /** Encrypts payloads (src/codec): every client of the project passes the process's one converter. */
  dataConverter: DataConverter;
  /** How long to wait for the server before giving up; a CLI should fail in seconds, not hang. */
  connectTimeoutMs?: number;
  /** The process's tracing interceptors (src/tracing), when it traces. */
  interceptors?: WorkflowClientInterceptor[];
  /** Who this client acts for, as workflow history records it with every signal and update (default: pid@host). */
  identity?: string;
}

/** Connects to Temporal once per process; callers share the returned client and close it when done. */
export async function connectClient(
  config: ConnectionSettings & Pick<TemporalConfig, 'namespace'>,
  options: ConnectClientOptions,
): Promise<TemporalClient> {
  // TLS files are read (and a bad path reported) before any connection attempt.
  const connectionOptions = await temporalConnectionOptions(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      ...connectionOptions,
      ...OUTAGE_BEHAVIOUR,
      connectTimeout: options.connectTimeoutMs ?? 5000,
    });
  } catch (err) {
    throw new TemporalUnreachableError(config.address, err);
  }
  return withClient(connection, config, options);
}

/**
 * A client that connects on its first call: for a process that must serve before Temporal is up (the codec server the
 * dev server's UI is started with), and that needs Temporal only for some of its answers.
 */
export async function lazyClient(
  config: ConnectionSettings & Pick<TemporalConfig, 'namespace'>,
  options: ConnectClientOptions,
): Promise<TemporalClient> {
  const connection = Connection.lazy({ ...(await temporalConnectionOptions(config)), ...OUTAGE_BEHAVIOUR });
  return withClient(connection, config, options);
}

function withClient(
  connection: Connection,
  config: Pick<TemporalConfig, 'namespace'>,
  options: ConnectClientOptions,
): TemporalClient {
  const client = new Client({
    connection,
    namespace: config.namespace,
    dataConverter: options.dataConverter,
    interceptors: { workflow: options.interceptors ?? [] },
    ...(options.identity ? { identity: options.identity } : {}),
  });
  return { client, close: () => connection.close() };
}

/**
 * The same client acting as someone else, as workflow history records it with each signal and update (e.g.
 * `webhook:eligibility`): a `Client` is cheap, and this one shares the connection, namespace, converter and
 * interceptors of `client`.
 */
export function actingAs(client: Client, identity: string): Client {
  const { namespace, dataConverter, interceptors, workflow } = client.options;
  return new Client({ connection: client.connection, namespace, dataConverter, interceptors, workflow, identity });
}
