import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { eventCatalogueMarkdown } from '../../src/events/catalogue-table.js';
import { EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';

const PAGE = new URL('../../docs/integrating/events.md', import.meta.url);
const START = '<!-- catalogue:start -->';
const END = '<!-- catalogue:end -->';

/** What the page holds between its catalogue markers, trimmed; undefined without them. */
function block(markdown: string): string | undefined {
  const [start, end] = [markdown.indexOf(START), markdown.indexOf(END)];
  if (start < 0 || end < start) return undefined;
  return markdown.slice(start + START.length, end).trim();
}

/** The event types a Markdown table names in its first column, in order. */
const typesOf = (table: string): string[] => [...table.matchAll(/^\|\s*`([^`]+)`/gm)].map((match) => match[1]!);

describe('the event types of docs/integrating/events.md', () => {
  it('are the catalogue, type by type (workflows/shared/event-catalogue.ts)', async () => {
    const table = block(await fs.readFile(PAGE, 'utf8'));
    assert.ok(table !== undefined, `the page has its ${START} … ${END} block`);
    const documented = typesOf(table);
    for (const type of EVENT_TYPES) assert.ok(documented.includes(type), `the page lacks ${type}`);
    for (const type of documented) {
      assert.ok((EVENT_TYPES as readonly string[]).includes(type), `the page names ${type}, which is no event type`);
    }
    assert.deepEqual(documented, [...EVENT_TYPES], "in the catalogue's order");
  });

  it('are the table generated from the catalogue (run `npx tsx scripts/events-docs.ts`)', async () => {
    const page = await fs.readFile(PAGE, 'utf8');
    // Formatted as the page is (the script and Prettier pad the cells alike).
    const options = await resolveConfig(fileURLToPath(PAGE));
    const generated = (await format(eventCatalogueMarkdown(), { ...options, parser: 'markdown' })).trim();
    assert.equal(block(page), generated, 'docs/integrating/events.md holds `npx tsx scripts/events-docs.ts` output');
  });
});
