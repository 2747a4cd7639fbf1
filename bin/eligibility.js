#!/usr/bin/env node
// Runs the compiled code of `npm run build` (dist/): no TypeScript loader in production, and `--help` answers in a
// fraction of a second. `npm start` builds first; the tests run the TypeScript sources through tsx instead.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const main = new URL('../dist/apps/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('eligibility: no compiled build in dist/ (from a clone: npm run build, or npm start)\n');
  process.exit(1);
}
await import(main.href);
