import fs from 'node:fs/promises';
import { CONFIGURATION_PAGE, configurationPage, SANDBOX_PAGE, sandboxPage } from './config-pages.js';

// `npm run docs:config`: writes docs/operating/configuration.md, the configuration reference, from
// src/config-variables.ts, and the variables section of docs/integrating/sandbox.md from sandbox/config.ts. Formatted
// as `npm run format` would, so the pages are the same whichever ran last.
async function run() {
  await fs.writeFile(CONFIGURATION_PAGE, await configurationPage());
  await fs.writeFile(SANDBOX_PAGE, await sandboxPage(await fs.readFile(SANDBOX_PAGE, 'utf8')));
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
