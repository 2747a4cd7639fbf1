import { loadConfig } from '../../src/config.js';
import { findTemporalCli, temporalCliVersion } from './temporal-cli.js';

// `npm run temporal:ensure`: find or build the Temporal CLI once, so later runs (tests, `npm start`) start at once.
async function run() {
  const { temporal } = loadConfig('dev');
  const cli = await findTemporalCli(temporal);
  console.log(`Temporal CLI: ${cli} (${await temporalCliVersion(cli)})`);
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
