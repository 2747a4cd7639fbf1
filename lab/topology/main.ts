/**
 * `npm run topology [-- --base-port N]`: the production topology on this machine (README "Deployment"), up until
 * Ctrl-C: PostgreSQL, the Temporal server as four service processes, two workers, two webhook receivers, the intake
 * API and the sandbox, each supervised and restarted if it exits. Prints where everything is, then tears it all down.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fields } from '../../src/text-format.js';
import { startTopology } from './topology.js';

const startedAt = Date.now();
const log = (line: string) =>
  console.log(`[${String(Math.round((Date.now() - startedAt) / 1000)).padStart(3)} s] ${line}`);

async function run(): Promise<void> {
  const { values } = parseArgs({
    options: { 'base-port': { type: 'string' }, 'max-rps': { type: 'string', default: '20' } },
  });
  const basePort = values['base-port'] === undefined ? undefined : Number(values['base-port']);
  const topology = await startTopology({
    basePort,
    maxRps: Number(values['max-rps']),
    log,
  });
  // The run's keys in a file only its owner reads, rather than on the terminal.
  const envFile = path.join(topology.runDir, 'cli.env');
  const exported = ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'TEMPORAL_TASK_QUEUE', 'CODEC_KEYS', 'INTAKE_API_KEY'];
  await fs.writeFile(envFile, exported.map((k) => `${k}='${topology.env[k]}'\n`).join(''), { mode: 0o600 });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      console.log('\nStopping: the project processes, then the Temporal services, then PostgreSQL');
      await topology.close();
      process.exit(0);
    })();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(
    `\n${fields([
      ['Temporal frontend', topology.frontendAddress],
      ['intake API', topology.intakeEndpoint.url],
      ['sandbox', topology.sandboxControl.url],
      ['webhook receivers', topology.receiverUrls.join(', ')],
      ['task queue', topology.env.TEMPORAL_TASK_QUEUE],
      ['logs', topology.logDir],
    ])}\n\nThe CLI and curl against it: set -a; . ${envFile}; set +a   (INTAKE_API_KEY is the intake's x-api-key)` +
      '\nCtrl-C stops everything.',
  );
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
