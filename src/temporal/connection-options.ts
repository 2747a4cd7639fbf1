import fs from 'node:fs/promises';
import type { TLSConfig } from '@temporalio/client';
import { toClientOptions, type ConfigDataSource } from '@temporalio/envconfig';
import { ConfigError } from '../config.js';
import type { TemporalConnectionSettings, TlsSources } from '../temporal-profile.js';

/** What `Connection.connect` (clients) and `NativeConnection.connect` (workers) both accept; built only here. */
export interface TemporalConnectionOptions {
  address: string;
  /** false = plaintext; true = TLS verified against the system roots; an object = TLS with files or a server name. */
  tls: TLSConfig | boolean;
  apiKey?: string;
  metadata?: Record<string, string>;
}

/** The connection settings of `TemporalConfig`; tests and tools that know only an address pass just that. */
export type ConnectionSettings = Pick<TemporalConnectionSettings, 'address'> &
  Partial<Omit<TemporalConnectionSettings, 'address' | 'namespace'>>;

type Problem = { variable: string; message: string };

const ENV_NAMES: TlsSources = {
  tls: 'TEMPORAL_TLS',
  clientCert: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  clientKey: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
  serverCACert: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  address: 'TEMPORAL_ADDRESS',
};

async function checkReadable(variable: string, source: ConfigDataSource | undefined, problems: Problem[]) {
  if (source === undefined || !('path' in source)) return;
  try {
    await fs.access(source.path, fs.constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    problems.push({ variable, message: `cannot read ${source.path} (${code})` });
  }
}

/** TLS on with nothing to configure is `true`; envconfig leaves every unset field as `undefined`. */
function compact(tls: TLSConfig | boolean | null | undefined): TLSConfig | boolean {
  if (tls === undefined || tls === null || typeof tls === 'boolean') return tls ?? false;
  const given = Object.entries(tls).filter(([, value]) => value !== undefined);
  return given.length > 0 ? Object.fromEntries(given) : true;
}

/**
 * Checks the TLS settings and that their files can be read before any connection is attempted, so a wrong path is
 * one line naming the setting (`TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read /x/cert.pem (ENOENT)`) instead of a
 * handshake failure later; then envconfig turns the settings into connection options. Throws `ConfigError`.
 */
export async function temporalConnectionOptions(settings: ConnectionSettings): Promise<TemporalConnectionOptions> {
  const { tls, apiKey } = settings;
  const names = settings.sources ?? ENV_NAMES;
  const problems: Problem[] = [];
  if (tls !== undefined) {
    // envconfig drops half a certificate pair without a word: the server would then refuse an mTLS handshake.
    if (tls.clientCert !== undefined && tls.clientKey === undefined) {
      problems.push({ variable: names.clientKey, message: `required with ${names.clientCert}` });
    }
    if (tls.clientKey !== undefined && tls.clientCert === undefined) {
      problems.push({ variable: names.clientCert, message: `required with ${names.clientKey}` });
    }
    const configured = [tls.clientCert, tls.clientKey, tls.serverCACert, tls.serverName].some((s) => s !== undefined);
    if (tls.disabled === true && configured) {
      problems.push({ variable: names.tls, message: 'turns TLS off while other TLS settings are given' });
    }
    await checkReadable(names.clientCert, tls.clientCert, problems);
    await checkReadable(names.clientKey, tls.clientKey, problems);
    await checkReadable(names.serverCACert, tls.serverCACert, problems);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  // An API key is a bearer secret: envconfig sends it over TLS unless TLS was switched off explicitly (a local proxy).
  const { connectionOptions } = toClientOptions({
    address: settings.address,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(tls !== undefined ? { tls } : {}),
    ...(settings.grpcMeta !== undefined ? { grpcMeta: settings.grpcMeta } : {}),
  });
  return {
    address: settings.address,
    tls: compact(connectionOptions.tls),
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(settings.grpcMeta !== undefined ? { metadata: settings.grpcMeta } : {}),
  };
}
