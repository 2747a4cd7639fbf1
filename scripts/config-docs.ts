import fs from 'node:fs/promises';
import { configTableMarkdown } from '../src/config.js';

// `npm run docs:config`: rewrites the README's configuration table from src/config.ts.
const START = '<!-- config:start -->';
const END = '<!-- config:end -->';

async function run() {
  const file = new URL('../README.md', import.meta.url);
  const readme = await fs.readFile(file, 'utf8');
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  const next = `${readme.slice(0, start + START.length)}\n${configTableMarkdown()}\n${readme.slice(end)}`;
  await fs.writeFile(file, next);
}

run().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
