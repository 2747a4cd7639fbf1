import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configTableMarkdown } from '../../src/config.js';

const PAGE = new URL('../../docs/operating/configuration.md', import.meta.url);

/** The page's table: its contiguous lines that start with `|`. */
function tableOf(markdown: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

describe('the configuration reference (docs/operating/configuration.md)', () => {
  it('holds exactly the table generated from src/config.ts (run `npm run docs:config`)', async () => {
    const page = await fs.readFile(PAGE, 'utf8');
    // Formatted as the page is (`npm run docs:config` and Prettier pad the cells alike).
    const options = await resolveConfig(fileURLToPath(PAGE));
    const generated = tableOf(await format(configTableMarkdown(), { ...options, parser: 'markdown' }));
    assert.ok(generated.split('\n').length > 2, 'the generated table has rows');
    assert.equal(tableOf(page), generated, 'docs/operating/configuration.md holds `npm run docs:config` output');
  });

  it('has no other table', async () => {
    const page = await fs.readFile(PAGE, 'utf8');
    const rest = page.replace(tableOf(page), '');
    assert.equal(tableOf(rest), '', 'one table: the generated one');
  });
});
