/**
 * `npm run topology:faults [-- --items N --base-port P]`: brings up the production topology (lab/topology/main.ts
 * describes it), runs issue 17's fault run on it (lab/topology/fault-run.ts), prints its figures and tears it all
 * down. Exit 1 when anything was lost or duplicated, the intake API answered 5xx while the engine was up, or a
 * component did not recover; the run folder with every process's log is then kept (`--keep`: kept in any case).
 */
import { parseArgs } from 'node:util';
import { faultReport, faultRunFailures } from './fault-report.js';
import { runFaults, SERVICE_FAULTS } from './fault-run.js';
import { startTopology, type Topology } from './topology.js';

const runStart = Date.now();
const log = (line: string) =>
  console.log(`[${String(Math.round((Date.now() - runStart) / 1000)).padStart(4)} s] ${line}`);

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: {
      items: { type: 'string', default: '1000' },
      'base-port': { type: 'string' },
      'max-rps': { type: 'string', default: '15' },
      keep: { type: 'boolean', default: false },
    },
  });
  const items = Number(values.items);
  if (!Number.isInteger(items) || items < 100) throw new Error('--items must be an integer of at least 100');
  let topology: Topology | undefined;
  let keepRunDir = true;
  const teardown = async () => {
    await topology?.close({ keepRunDir });
    if (topology && keepRunDir) log(`logs of every process kept in ${topology.logDir}`);
  };
  const interrupted = () => {
    log('interrupted: tearing down');
    void teardown().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    topology = await startTopology({
      basePort: values['base-port'] === undefined ? undefined : Number(values['base-port']),
      maxRps: Number(values['max-rps']),
      log,
    });
    log(`fault run: ${items} items; the sandbox injects ${JSON.stringify(SERVICE_FAULTS)}`);
    const figures = await runFaults(topology, items, log);
    console.log(
      `\nProduction topology fault run (Temporal server ${topology.binaries.version} on PostgreSQL ${topology.pg.version})\n`,
    );
    console.log(faultReport(figures));
    const reasons = faultRunFailures(figures);
    console.log(reasons.length === 0 ? '\nPASS' : `\nFAIL\n${reasons.map((r) => `  ${r}`).join('\n')}`);
    keepRunDir = reasons.length > 0 || values.keep;
    return reasons.length === 0 ? 0 : 1;
  } finally {
    await teardown();
    log(`done in ${Math.round((Date.now() - runStart) / 1000)} s`);
  }
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(2);
  },
);
