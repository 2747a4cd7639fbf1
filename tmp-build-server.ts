import { loadConfig } from './src/config.js';
import { findOnPath } from './apps/dev/find-on-path.js';
import { ensureServerBinaries } from './bench/topology/server-binaries.js';
const config = loadConfig();
const binaries = await ensureServerBinaries({
  cacheDir: config.temporal.cacheDir,
  go: await findOnPath('go', config.temporal.searchPath),
  log: (line) => console.log(line),
});
console.log(JSON.stringify(binaries));
