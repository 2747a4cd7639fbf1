import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configTableMarkdown } from '../src/config.js';

// `npm run docs:config`: writes docs/operating/configuration.md, the configuration reference, from src/config.ts.
// Formatted as `npm run format` would, so the page is the same whichever ran last; test/foundation/config-docs.test.ts
// fails when the committed page and the table drift apart.
const PAGE = new URL('../docs/operating/configuration.md', import.meta.url);

const INTRO = [
  'Every setting is an environment variable, read once per process by `src/config.ts`; an invalid value stops the',
  'process with a message naming the variable. The defaults run everything locally against the sandbox. This page is',
  'generated from `src/config-variables.ts` by `npm run docs:config`.',
].join('\n');

async function run() {
  const page = `# Configuration\n\n${INTRO}\n\n${configTableMarkdown()}\n`;
  const options = await resolveConfig(fileURLToPath(PAGE));
  await fs.writeFile(PAGE, await format(page, { ...options, parser: 'markdown' }));
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
