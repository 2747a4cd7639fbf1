import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ClientConfigProfile, ClientConfigTLS } from '@temporalio/envconfig';
import { ConfigError } from './config-error.js';

/**
 * Where a process connects to Temporal, by Temporal's own conventions (@temporalio/envconfig, as the Temporal CLI and
 * SDKs do it): the profile `TEMPORAL_PROFILE` (else `default`) of the TOML config file (`TEMPORAL_CONFIG_FILE`, else
 * `temporalio/temporal.toml` in the user's config folder, when it exists), each setting overridden by its standard
 * variable (`TEMPORAL_ADDRESS`, `TEMPORAL_API_KEY`, `TEMPORAL_TLS_CLIENT_CERT_PATH`, …). An existing Temporal Cloud
 * set-up is therefore used as it is.
 */
export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  apiKey?: string;
  /** envconfig's TLS settings: files by path or PEM data, server name, `disabled`; undefined = none given. */
  tls?: ClientConfigTLS;
  /** gRPC metadata of the profile (`grpc_meta`), sent with every call. */
  grpcMeta?: Record<string, string>;
  /** Where each TLS setting came from (its variable, or the profile's key), for messages that name the setting. */
  sources: TlsSources;
}

export type TlsSources = Record<'tls' | 'clientCert' | 'clientKey' | 'serverCACert' | 'address', string>;

/** The variables envconfig reads: only these are passed to it, from the environment src/config.ts was given. */
export const TEMPORAL_PROFILE_VARIABLES = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_PROFILE',
  'TEMPORAL_CONFIG_FILE',
  'XDG_CONFIG_HOME',
  'HOME',
] as const;

type ProfileEnv = Partial<Record<(typeof TEMPORAL_PROFILE_VARIABLES)[number], string>>;

/** The local dev server's: what a process connects to with no profile and no variable. */
export const DEFAULT_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_NAMESPACE = 'default';
const HOST_PORT = /^[^:\s]+:\d{1,5}$/;

// Loaded on first use: commands that never connect (`--help`, `sandbox`) do not pay for the TOML parser.
const require = createRequire(import.meta.url);
const envconfig = () => require('@temporalio/envconfig') as typeof import('@temporalio/envconfig');

/** The variable that gave a setting, else the key of the profile that did; a setting nobody gave, by its variable. */
function sources(env: ProfileEnv, name: string, profile: ClientConfigProfile): TlsSources {
  const from = (variables: (keyof ProfileEnv)[], key: string, inProfile: unknown) =>
    variables.find((v) => env[v] !== undefined) ??
    (inProfile !== undefined ? `profile "${name}" ${key}` : variables[0]!);
  const tls = profile.tls ?? {};
  return {
    tls: from(['TEMPORAL_TLS'], 'tls.disabled', tls.disabled),
    clientCert: from(
      ['TEMPORAL_TLS_CLIENT_CERT_PATH', 'TEMPORAL_TLS_CLIENT_CERT_DATA'],
      'tls.client_cert_path',
      tls.clientCert,
    ),
    clientKey: from(
      ['TEMPORAL_TLS_CLIENT_KEY_PATH', 'TEMPORAL_TLS_CLIENT_KEY_DATA'],
      'tls.client_key_path',
      tls.clientKey,
    ),
    serverCACert: from(
      ['TEMPORAL_TLS_SERVER_CA_CERT_PATH', 'TEMPORAL_TLS_SERVER_CA_CERT_DATA'],
      'tls.server_ca_cert_path',
      tls.serverCACert,
    ),
    address: from(['TEMPORAL_ADDRESS'], 'address', profile.address),
  };
}

/** The file, the profile's TOML or its name at fault, named without echoing the file's text (it may hold an API key). */
function profileProblem(err: unknown, env: ProfileEnv, profile: string): ConfigError {
  const file = env.TEMPORAL_CONFIG_FILE;
  const variable = file !== undefined ? 'TEMPORAL_CONFIG_FILE' : 'Temporal config file';
  const at = err as { line?: unknown; column?: unknown; code?: unknown; message?: unknown };
  if (typeof at.line === 'number') {
    return new ConfigError([{ variable, message: `not valid TOML (line ${at.line}, column ${String(at.column)})` }]);
  }
  if (typeof at.message === 'string' && /^Profile '.*' not found/.test(at.message)) {
    return new ConfigError([
      { variable: 'TEMPORAL_PROFILE', message: `no profile "${profile}" in the Temporal config file` },
    ]);
  }
  const code = typeof at.code === 'string' ? at.code : 'unknown error';
  return new ConfigError([{ variable, message: `cannot be read (${code})` }]);
}

/** The project's own TLS variables before Temporal's conventions: set, they would be ignored without a word. */
const RENAMED: Record<string, string> = {
  TEMPORAL_TLS_CA_PATH: 'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  TEMPORAL_TLS_CERT_PATH: 'TEMPORAL_TLS_CLIENT_CERT_PATH',
  TEMPORAL_TLS_KEY_PATH: 'TEMPORAL_TLS_CLIENT_KEY_PATH',
};

/** Reads the profile and applies the variables over it; throws `ConfigError` naming the file, profile or setting. */
export function loadTemporalConnection(
  given: Readonly<Record<string, string | undefined>>,
): TemporalConnectionSettings {
  const renamed = Object.entries(RENAMED).filter(([old]) => given[old]);
  if (renamed.length > 0) {
    throw new ConfigError(renamed.map(([old, name]) => ({ variable: old, message: `is no longer read: set ${name}` })));
  }
  // Only the variables of Temporal's conventions, and an empty one counts as unset, as everywhere in src/config.ts
  // (compose passes `TEMPORAL_TLS: ''`, which envconfig would otherwise read as "TLS off").
  const env: ProfileEnv = Object.fromEntries(
    TEMPORAL_PROFILE_VARIABLES.flatMap((name) => (given[name] ? [[name, given[name]]] : [])),
  );
  const profileName = env.TEMPORAL_PROFILE ?? 'default';
  // envconfig takes a missing file for "no profiles", which is right for the default location only.
  if (env.TEMPORAL_CONFIG_FILE !== undefined && !existsSync(env.TEMPORAL_CONFIG_FILE)) {
    throw new ConfigError([
      { variable: 'TEMPORAL_CONFIG_FILE', message: `cannot read ${env.TEMPORAL_CONFIG_FILE} (ENOENT)` },
    ]);
  }
  let profile: ClientConfigProfile;
  try {
    profile = envconfig().loadClientConfigProfile({ overrideEnvVars: env });
  } catch (err) {
    throw profileProblem(err, env, profileName);
  }
  const source = sources(env, profileName, profile);
  const address = profile.address ?? DEFAULT_ADDRESS;
  if (!HOST_PORT.test(address)) throw new ConfigError([{ variable: source.address, message: 'expected host:port' }]);
  return {
    address,
    namespace: profile.namespace ?? DEFAULT_NAMESPACE,
    ...(profile.apiKey !== undefined ? { apiKey: profile.apiKey } : {}),
    ...(profile.tls !== undefined ? { tls: profile.tls } : {}),
    ...(profile.grpcMeta !== undefined ? { grpcMeta: profile.grpcMeta } : {}),
    sources: source,
  };
}
