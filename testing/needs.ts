import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What a run's test files need of the shared parts the main process starts, read from what they import: a file of
 * pure unit tests starts no server, and a run of such files takes seconds. A part is needed when a spec file reaches
 * its module through imports among test/, testing/ and lab/ (the product never imports them, a layer rule).
 */
export interface Needs {
  temporal: boolean;
  database: boolean;
  bundle: boolean;
  compiled: boolean;
  browser: boolean;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const PART_MODULES: Record<keyof Needs, string> = {
  temporal: 'testing/temporal.ts',
  database: 'testing/database.ts',
  bundle: 'testing/bundle.ts',
  compiled: 'testing/compiled.ts',
  browser: 'testing/browser.ts',
};
const EVERYTHING = Object.fromEntries(Object.keys(PART_MODULES).map((part) => [part, true])) as unknown as Needs;
// Mocha's own lookup, so that a spec reads here as it does to mocha (globs with braces and extglobs).
const { lookupFiles } = createRequire(import.meta.url)('mocha/lib/cli/lookup-files.js') as {
  lookupFiles: (spec: string, extensions: string[], recursive: boolean) => string[];
};
const IMPORT = /(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g;

/** The spec files named on mocha's command line (files or globs); none found means "not known". */
function specFiles(argv: readonly string[]): string[] {
  const specs: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (/^(--require|-r|--config|--reporter|-R|--grep|-g|--timeout|-t|--jobs|-j)$/.test(arg)) i++;
    else if (!arg.startsWith('-') && /\.ts$|\*/.test(arg)) specs.push(...lookupFiles(arg, ['.ts'], false));
  }
  return specs.map((file) => path.relative(ROOT, path.resolve(file)));
}

/** The modules a spec file reaches among the tests and the harness. */
function reached(spec: string, seen: Set<string>): void {
  if (seen.has(spec) || !/^(test|testing|lab)\//.test(spec)) return;
  seen.add(spec);
  const source = readFileSync(path.join(ROOT, spec), 'utf8');
  for (const [, specifier] of source.matchAll(IMPORT)) {
    const target = path.join(path.dirname(spec), specifier!).replace(/\.js$/, '.ts');
    if (existsSync(path.join(ROOT, target))) reached(target, seen);
  }
}

export function needsOf(argv: readonly string[] = process.argv): Needs {
  const specs = specFiles(argv);
  if (specs.length === 0) return EVERYTHING;
  const seen = new Set<string>();
  for (const spec of specs) reached(spec, seen);
  // testing/compiled.ts imports testing/bundle.ts: a compiled worker runs the run's bundle, so that need follows.
  return Object.fromEntries(
    Object.entries(PART_MODULES).map(([part, module]) => [part, seen.has(module)]),
  ) as unknown as Needs;
}
