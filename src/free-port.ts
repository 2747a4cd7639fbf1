import net from 'node:net';

/**
 * A port nothing listens on, for a server the caller starts next. The probe's port is left in TIME_WAIT (its server
 * side closes first), and while it is there the kernel hands it to no `listen(0)` and to no outgoing connection; an
 * explicit bind still succeeds, since Node, Go and PostgreSQL all set SO_REUSEADDR. A port merely closed goes back to
 * the kernel's pool at once, and on a busy test run another process took it often enough to fail a server's start.
 */
export async function freePort(ip = '127.0.0.1'): Promise<number> {
  // The probe's own connection: its end (a reset) must not become an unhandled error.
  const server = net.createServer((socket) => socket.once('error', () => undefined).end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, ip, resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      const client = net.connect(port, ip);
      client.once('error', reject);
      client.once('close', () => resolve());
      client.resume();
    });
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return port;
}
