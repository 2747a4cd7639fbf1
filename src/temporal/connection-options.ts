import fs from 'node:fs/promises';
import type { TLSConfig } from '@temporalio/client';
import { ConfigError, type TemporalConfig } from '../config.js';

/** What `Connection.connect` (clients) and `NativeConnection.connect` (workers) both accept; built only here. */
export interface TemporalConnectionOptions {
  address: string;
  /** false = plaintext; true = TLS verified against the system roots; an object = TLS with files or a server name. */
  tls: TLSConfig | boolean;
  apiKey?: string;
}

/** The connection settings of `TemporalConfig`; tests and tools that know only an address pass just that. */
export type ConnectionSettings = Pick<TemporalConfig, 'address'> & Partial<Pick<TemporalConfig, 'tls' | 'apiKey'>>;

type Problem = { variable: string; message: string };

async function readPem(variable: string, file: string | undefined, problems: Problem[]): Promise<Buffer | undefined> {
  if (file === undefined) return undefined;
  try {
    return await fs.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    problems.push({ variable, message: `cannot read ${file} (${code})` });
    return undefined;
  }
}

/**
 * Reads the TLS files and checks the TLS settings before any connection is attempted, so a wrong path is reported as
 * one line naming the variable (`TEMPORAL_TLS_CERT_PATH: cannot read /x/cert.pem (ENOENT)`) instead of surfacing as
 * a handshake failure later. Throws `ConfigError`.
 */
export async function temporalConnectionOptions(settings: ConnectionSettings): Promise<TemporalConnectionOptions> {
  const tls: Partial<TemporalConfig['tls']> = settings.tls ?? {};
  const problems: Problem[] = [];
  if (tls.certPath !== undefined && tls.keyPath === undefined) {
    problems.push({ variable: 'TEMPORAL_TLS_KEY_PATH', message: 'required when TEMPORAL_TLS_CERT_PATH is set' });
  }
  if (tls.keyPath !== undefined && tls.certPath === undefined) {
    problems.push({ variable: 'TEMPORAL_TLS_CERT_PATH', message: 'required when TEMPORAL_TLS_KEY_PATH is set' });
  }
  const files = tls.caPath !== undefined || tls.certPath !== undefined || tls.keyPath !== undefined;
  if (tls.enabled === false && (files || tls.serverName !== undefined)) {
    problems.push({ variable: 'TEMPORAL_TLS', message: 'is false while TEMPORAL_TLS_* settings are given' });
  }
  const ca = await readPem('TEMPORAL_TLS_CA_PATH', tls.caPath, problems);
  const crt = await readPem('TEMPORAL_TLS_CERT_PATH', tls.certPath, problems);
  const key = await readPem('TEMPORAL_TLS_KEY_PATH', tls.keyPath, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  const apiKey = settings.apiKey;
  // An API key is a bearer secret: it goes over TLS unless TLS was switched off explicitly (a local proxy).
  const wantsTls = tls.enabled ?? (files || tls.serverName !== undefined || apiKey !== undefined);
  const config: TLSConfig = {
    ...(ca ? { serverRootCACertificate: ca } : {}),
    ...(crt && key ? { clientCertPair: { crt, key } } : {}),
    ...(tls.serverName !== undefined ? { serverNameOverride: tls.serverName } : {}),
  };
  return {
    address: settings.address,
    tls: wantsTls ? (Object.keys(config).length > 0 ? config : true) : false,
    ...(apiKey !== undefined ? { apiKey } : {}),
  };
}
