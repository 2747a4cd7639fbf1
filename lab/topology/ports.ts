import { assertPortFree } from '../../apps/dev/temporal-dev-server.js';

/**
 * The Temporal server keeps each service's membership port in a PostgreSQL `smallint` (cluster_membership.rpc_port):
 * a port above 32767 makes the service fail at start ("out of range for type smallint"), and the kernel's ephemeral
 * range, where a port asked of the system lands, starts above it. So every port of the topology is taken below.
 */
const HIGHEST_PORT = 32_767;
const LOWEST_PORT = 20_000;

async function isFree(port: number): Promise<boolean> {
  return assertPortFree(port, '127.0.0.1', 'topology').then(
    () => true,
    () => false,
  );
}

/**
 * One port per name: `base`, `base + 1`, … in the order given (each checked free, an error naming the one in use), or,
 * without a base, free ports from a random point between 20000 and 32767. A fixed range keeps a run inside the ports
 * a shared machine gave it.
 */
export async function allocatePorts<K extends string>(names: readonly K[], base?: number): Promise<Record<K, number>> {
  const ports = {} as Record<K, number>;
  if (base !== undefined && base + names.length - 1 > HIGHEST_PORT) {
    throw new Error(`--base-port ${base}: the topology's ports must stay at or below ${HIGHEST_PORT} (see ports.ts)`);
  }
  let next = LOWEST_PORT + Math.floor(Math.random() * (HIGHEST_PORT - LOWEST_PORT - 1000));
  for (const [i, name] of names.entries()) {
    let port: number;
    if (base !== undefined) {
      port = base + i;
      await assertPortFree(port, '127.0.0.1', name);
    } else {
      while (!(await isFree(next))) next += 1;
      port = next;
      next += 1;
    }
    ports[name] = port;
  }
  return ports;
}
