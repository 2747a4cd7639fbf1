import assert from 'node:assert/strict';
import net from 'node:net';
import { freePort } from '../../src/free-port.js';

async function listen(port: number): Promise<net.Server> {
  const server = net.createServer((socket) => socket.on('error', () => {}));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return server;
}

async function close(server: net.Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('freePort', () => {
  it("keeps the port it gives from the kernel's own choices until the caller binds it", async function () {
    this.timeout(60_000);
    const given = new Set<number>();
    for (let i = 0; i < 40; i++) given.add(await freePort());

    // What a busy test run does meanwhile: servers on "any" port and outgoing connections. A port merely closed is
    // handed out again here several times over (about 2,000 ÷ 28,000 of the ephemeral range per port given).
    const target = await listen(0);
    const { port: targetPort } = target.address() as net.AddressInfo;
    const held: Array<net.Server | net.Socket> = [];
    const taken: number[] = [];
    try {
      for (let i = 0; i < 1_000; i++) {
        const server = await listen(0);
        held.push(server);
        taken.push((server.address() as net.AddressInfo).port);
        const socket = net.connect(targetPort, '127.0.0.1');
        held.push(socket);
        await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
        taken.push(socket.localPort!);
      }
      assert.deepEqual(
        taken.filter((port) => given.has(port)),
        [],
      );
    } finally {
      for (const h of held) {
        if (h instanceof net.Socket) h.destroy();
        else await close(h);
      }
      await close(target);
    }

    // And the caller can still bind every one of them.
    for (const port of given) await close(await listen(port));
  });
});
