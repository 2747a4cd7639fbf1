import { assertPortFree, freePort } from '../../src/dev/temporal-dev-server.js';

/**
 * One port per name: `base`, `base + 1`, … in the order given (each checked free, an error naming the one in use), or,
 * without a base, any free ports. A fixed range keeps a run inside the ports a shared machine gave it.
 */
export async function allocatePorts<K extends string>(names: readonly K[], base?: number): Promise<Record<K, number>> {
  const ports = {} as Record<K, number>;
  const taken = new Set<number>();
  for (const [i, name] of names.entries()) {
    let port: number;
    if (base !== undefined) {
      port = base + i;
      await assertPortFree(port, '127.0.0.1', name);
    } else {
      // freePort may hand back a port given to an earlier name (it is free again once probed): ask again.
      do port = await freePort();
      while (taken.has(port));
    }
    taken.add(port);
    ports[name] = port;
  }
  return ports;
}
