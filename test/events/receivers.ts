import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: Record<string, string>;
  body: string;
  event: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

/** What a receiver answers a request with: a status, or `hang` (never answers). */
export type Behaviour = (received: Received, n: number) => number | 'hang';

/** A real HTTP receiver on port 0 that keeps every request and answers as `behaviour` says (default 200). */
export class TestReceiver {
  readonly received: Received[] = [];
  behaviour: Behaviour = () => 200;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const received = { headers, body, event: JSON.parse(body) as Received['event'], at: Date.now() };
      this.received.push(received);
      const answer = this.behaviour(received, this.received.length);
      if (answer === 'hang') return;
      res.writeHead(answer).end();
    });
  });

  /** Listens on `port` (0: any free one); after `stop`, the same port again brings the endpoint back up. */
  async start(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The port it listens on (while it does). */
  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** The events of one verification or batch, in arrival order. */
  about(id: string): Received[] {
    return this.received.filter((r) => r.event.data.workflowId === id || r.event.data.batchId === id);
  }
}

/** Verifies a delivery independently, as a receiver would: throws when the signature does not match `secret`. */
export function verify(received: Received, secret: string): unknown {
  return new Webhook(secret).verify(received.body, received.headers);
}
