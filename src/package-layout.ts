import { fileURLToPath } from 'node:url';

/**
 * Where the package's files are, whether this process runs the TypeScript sources (tests, `tsx`) or the compiled
 * JavaScript of `npm run build` (`dist/`, what `bin/eligibility.js`, `npm start` and the image run). Files read by path
 * at run time (deploy/temporal/, examples/) are found from the package root, so both layouts read the same ones.
 */

/** true when this module is the compiled `dist/src/package-layout.js`, false when it is the `.ts` source. */
export const compiled = !import.meta.url.endsWith('.ts');

/** The extension of the project's own modules in this layout: `.js` compiled, `.ts` from the sources. */
export const moduleExtension = compiled ? '.js' : '.ts';

/** The directory holding package.json: this file is `<root>/src/…` or `<root>/dist/src/…`. */
const rootUrl = new URL(compiled ? '../../' : '../', import.meta.url);

export const packageRoot = fileURLToPath(rootUrl);

/** A file of the package by its path from the package root (`deploy/temporal/versions.json`). */
export function packageFile(relativePath: string): string {
  return fileURLToPath(new URL(relativePath, rootUrl));
}

/** The compiled code of `npm run build`. */
export const distDir = packageFile('dist/');

/** The workflow bundle `npm run build` writes next to the compiled code: a compiled worker loads it by default. */
export const builtWorkflowBundle = packageFile('dist/workflow-bundle.js');
/** The same with OpenTelemetry's workflow interceptors, for a worker whose tracing is on. */
export const builtTracedWorkflowBundle = packageFile('dist/workflow-bundle-traced.js');
