import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';

/** Files of a throwaway certificate authority, a server certificate for `serverName` and a client certificate. */
export interface TestCertificates {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

const openssl = (dir: string, args: string[]) => promisify(execFile)('openssl', args, { cwd: dir });

/** Made with the openssl command; P-256 keys and the extensions rustls (the worker's core) insists on. */
export async function makeCertificates(dir: string, serverName: string): Promise<TestCertificates> {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await openssl(dir, [
    'req',
    '-x509',
    ...key,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  for (const [name, subject, usage] of [
    ['server', serverName, `serverAuth\nsubjectAltName=DNS:${serverName}`],
    ['client', 'eligibility-client', 'clientAuth'],
  ] as const) {
    await fs.writeFile(
      path.join(dir, `${name}.ext`),
      `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=${usage}\n`,
    );
    await openssl(dir, ['req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${subject}`]);
    await openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    ]);
  }
  const file = (name: string) => path.join(dir, name);
  return {
    ca: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server.key'),
    clientCert: file('client.pem'),
    clientKey: file('client.key'),
  };
}

/** A TLS connection the proxy accepted: the name the client asked for (SNI) and its certificate's subject. */
export interface Handshake {
  serverName: string | false | null;
  client: string | undefined;
}

export interface TlsProxy {
  address: string;
  handshakes: Handshake[];
  close(): Promise<void>;
}

/**
 * Temporal behind TLS that requires a client certificate signed by the test CA (mTLS, as Temporal Cloud does): it
 * ends TLS and passes the gRPC bytes (HTTP/2, negotiated by ALPN) to the plaintext dev server at `target`.
 */
export async function startTlsProxy(target: string, certs: TestCertificates): Promise<TlsProxy> {
  const at = target.lastIndexOf(':');
  const [host, port] = [target.slice(0, at), Number(target.slice(at + 1))];
  const [ca, cert, key] = await Promise.all([certs.ca, certs.serverCert, certs.serverKey].map((f) => fs.readFile(f)));
  const handshakes: Handshake[] = [];
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({
    ca,
    cert,
    key,
    requestCert: true,
    rejectUnauthorized: true,
    ALPNProtocols: ['h2'],
  });
  server.on('secureConnection', (client) => {
    const subject = client.getPeerCertificate().subject as { CN?: string } | undefined;
    handshakes.push({ serverName: client.servername, client: subject?.CN });
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream])
      socket
        .on('error', () => undefined)
        .on('close', () => {
          client.destroy();
          upstream.destroy();
        });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
