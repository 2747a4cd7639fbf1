import { EVENT_CATALOGUE, EVENT_TYPES } from '../../workflows/shared/event-catalogue.js';

/**
 * The event catalogue as the Markdown table of docs/integrating/events.md: one row per type, in the catalogue's order,
 * with what it is about and when it is sent. `npx tsx scripts/events-docs.ts` writes it into the page;
 * test/events/catalogue-docs.test.ts fails when the page and the catalogue drift apart.
 */
export function eventCatalogueMarkdown(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = EVENT_TYPES.map((type) => {
    const { about, description } = EVENT_CATALOGUE[type];
    return `| \`${type}\` | ${about} | ${cell(description)} |`;
  });
  return ['| type | about | when |', '|---|---|---|', ...rows].join('\n');
}
