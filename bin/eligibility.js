#!/usr/bin/env node
// Runs the compiled code of `npm run build` (dist/): no TypeScript loader in production, and `--help` answers in a
// fraction of a second. `npm start` builds first, and `npm test` builds once per run.
import { existsSync } from 'node:fs';
import module from 'node:module';
import process from 'node:process';
import { URL } from 'node:url';

const main = new URL('../dist/apps/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('eligibility: no compiled build in dist/ (from a clone: npm run build, or npm start)\n');
  process.exit(1);
}
// V8's code cache for the modules it loads (in the system's temp folder): a command starts in about 15% less CPU from
// its second run on. A folder it cannot write only leaves the cache off.
module.enableCompileCache?.();
await import(main.href);
