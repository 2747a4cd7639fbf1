import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { packageFile } from '../../src/package-layout.js';

/**
 * The Temporal release every part of the project runs: the dev server's CLI, the compose images and the production
 * topology's server build all take their versions and dynamic config from `deploy/temporal/`, one home for both.
 */
export interface TemporalVersions {
  /** The Temporal CLI, whose `server start-dev` is the dev server. */
  cli: string;
  /** The server inside that CLI, and the compose images' and the production topology's server. */
  server: string;
  ui: string;
}

// From the package root, so the sources and the compiled code (dist/) read the same files.
export const temporalVersions: TemporalVersions = JSON.parse(
  readFileSync(packageFile('deploy/temporal/versions.json'), 'utf8'),
) as TemporalVersions;

export const dynamicConfigFile = packageFile('deploy/temporal/dynamic-config.yaml');

type DynamicConfig = Record<string, { value: unknown; constraints?: Record<string, unknown> }[]>;

/** Each key's unconstrained value as `key=<json>`, the form of `temporal server start-dev --dynamic-config-value`. */
export function devServerDynamicConfig(yamlText = readFileSync(dynamicConfigFile, 'utf8')): string[] {
  const config = (parse(yamlText) ?? {}) as DynamicConfig;
  return Object.entries(config).flatMap(([key, values]) => {
    const plain = values.find((v) => !v.constraints || Object.keys(v.constraints).length === 0);
    return plain === undefined ? [] : [`${key}=${JSON.stringify(plain.value)}`];
  });
}
