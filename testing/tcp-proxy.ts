import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy on a free port of 127.0.0.1 to `target`; `refuse()` makes the target unreachable until `accept()`. */
export interface TcpProxy {
  address: string;
  /** Drops every connection and refuses new ones, as a stopped server does. */
  refuse(): Promise<void>;
  /** Accepts connections again, on the same port. */
  accept(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const at = target.lastIndexOf(':');
  const [host, port] = [target.slice(0, at), Number(target.slice(at + 1))];
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let listenPort = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(port, host);
        const end = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
      });
      s.once('error', reject);
      s.listen(listenPort, '127.0.0.1', () => {
        listenPort = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });
  const refuse = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return { address: `127.0.0.1:${listenPort}`, refuse, accept: listen, close: refuse };
}
