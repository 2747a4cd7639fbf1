import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logging.js';

export interface ServeHttpOptions {
  /** Named in the line printed once listening, e.g. `Webhook receiver`. */
  what: string;
  /** The role, as the command names it (`receiver`, `intake`): the service name of its spans. */
  role: string;
  host: string;
  port: number;
  /** Printed after the address (the receiver's path). */
  path?: string;
  /** Builds the app on the process's one Temporal client; the app never opens a connection of its own. */
  create(client: Client, logger: Logger): FastifyInstance;
  /** Stops the server when aborted (SIGTERM / Ctrl-C). */
  signal: AbortSignal;
  log?: (line: string) => void;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * Serves one HTTP edge of the system (`eligibility receiver`, `eligibility intake`) with one Temporal client for the
 * whole process until `signal` aborts; then it stops accepting connections, lets requests in flight finish, and
 * closes the connection. Keys and TLS files are checked before anything connects.
 */
export async function serveHttp(config: Config, options: ServeHttpOptions): Promise<void> {
  const log = options.log ?? ((line: string) => console.log(line));
  const { connectClient } = await import('../../src/temporal/client.js');
  const { createDataConverter } = await import('../../src/codec/data-converter.js');
  const { setUpTracing } = await import('../../src/tracing/tracing.js');
  const dataConverter = await createDataConverter(config.codec);
  const tracing = await setUpTracing(config.observability, options.role);
  const temporal = await connectClient(config.temporal, { dataConverter, interceptors: tracing.clientInterceptors });
  try {
    const app = options.create(temporal.client, createLogger(config));
    try {
      const address = (await app.listen({ host: options.host, port: options.port })).replace(/\/$/, '');
      log(`${options.what} listening on ${address}${options.path ?? ''} (Temporal ${config.temporal.address})`);
      await aborted(options.signal);
    } finally {
      await app.close();
    }
  } finally {
    await temporal.close();
    await tracing.shutdown();
  }
}
