import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { eventCatalogueMarkdown } from '../src/events/catalogue-table.js';

// `npx tsx scripts/events-docs.ts`: writes the table of event types of docs/integrating/events.md, between its
// `<!-- catalogue:start -->` and `<!-- catalogue:end -->` markers, from the event catalogue
// (workflows/shared/event-catalogue.ts). Formatted as `npm run format` would, so the page is the same whichever ran
// last; test/events/catalogue-docs.test.ts fails when the page and the catalogue drift apart.
const PAGE = new URL('../docs/integrating/events.md', import.meta.url);
const START = '<!-- catalogue:start -->';
const END = '<!-- catalogue:end -->';

async function run() {
  const page = await fs.readFile(PAGE, 'utf8');
  const [start, end] = [page.indexOf(START), page.indexOf(END)];
  if (start < 0 || end < start) throw new Error(`docs/integrating/events.md has no ${START} … ${END} block`);
  const written = `${page.slice(0, start + START.length)}\n\n${eventCatalogueMarkdown()}\n\n${page.slice(end)}`;
  const options = await resolveConfig(fileURLToPath(PAGE));
  await fs.writeFile(PAGE, await format(written, { ...options, parser: 'markdown' }));
  console.log(`wrote ${fileURLToPath(PAGE)}`);
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
