// The layer order of docs/developing/architecture.md, checked by `npm run lint` with type imports included: a type
// import couples two modules as surely as a value import does, and it is how cycles hide.
//
// Bottom to top: the foundation (src/contract, files directly in src/) < workflows/shared < workflow families <
// libraries (src/*/) < activities < workers < apps. The sandbox imitates the service and uses the foundation only.

/** A rule that `from` may not import `to`. */
const layer = (name, comment, from, to) => ({ name, comment, severity: 'error', from, to });

const PRODUCT = '^(src|workflows|activities|workers|apps|sandbox)/';

module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment: 'Modules depend on each other in one direction only.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      comment:
        'Folders depend on each other in one direction only; move the shared piece to the lower folder. The top-level ' +
        'folders are left out here because src/ holds both the foundation and the libraries: the layer rules order them.',
      severity: 'error',
      scope: 'folder',
      from: { pathNot: '^(src|workflows|activities|apps|sandbox|test|testing|lab)$' },
      to: { circular: true, pathNot: '^(src|workflows|activities|apps|sandbox|test|testing|lab)$' },
    },
    layer(
      'contract-is-the-bottom',
      'src/contract describes the service and imports nothing of the project but itself.',
      { path: '^src/contract/' },
      { path: PRODUCT, pathNot: '^src/contract/' },
    ),
    layer(
      'foundation-imports-foundation',
      'Files directly in src/ (configuration, logging, text tables) import only each other.',
      { path: '^src/[^/]+\\.ts$' },
      { path: PRODUCT, pathNot: '^src/[^/]+\\.ts$' },
    ),
    layer(
      'workflows-import-workflows-and-the-contract',
      'Workflow code is replayed: besides the SDK it imports workflow files and the contract (types only, ESLint checks).',
      { path: '^workflows/' },
      { path: PRODUCT, pathNot: '^(workflows/|src/contract/)' },
    ),
    layer(
      'workflows-shared-is-shared',
      'workflows/shared is what every family and every client imports: it cannot import a family.',
      { path: '^workflows/shared/' },
      { path: '^workflows/', pathNot: '^workflows/shared/' },
    ),
    layer(
      'clients-import-a-family-entry',
      "Outside workflows/, import workflows/shared or a family's entry (`<family>/<family>.ts`, or its index.ts): a " +
        "family's inner files and the worker's barrel (workflows/index.ts) are not an interface.",
      { path: '^(src|activities|workers|apps|sandbox)/' },
      { path: '^workflows/(index\\.ts$|(?!shared/)([^/]+)/(?!index\\.ts$|\\2\\.ts$))' },
    ),
    layer(
      'libraries-below-activities',
      'Libraries (src/) run in no process of their own and are used by activities, workers and apps, never the reverse.',
      { path: '^src/' },
      { path: '^(activities|workers|apps|sandbox)/' },
    ),
    layer(
      'activities-below-workers',
      'Activities are created by the worker; they never import it, an app or the sandbox.',
      { path: '^activities/' },
      { path: '^(workers|apps|sandbox)/' },
    ),
    layer(
      'workers-below-apps',
      'The worker is started by apps (the CLI, the dev stack).',
      { path: '^workers/' },
      { path: '^(apps|sandbox)/' },
    ),
    layer(
      'services-are-independent',
      'The services people run (console, intake API, receiver, codec server) share libraries, not each other; only the ' +
        'CLI and the dev stack put them together.',
      { path: '^apps/(console|intake-api|receiver|codec-server)/' },
      { path: '^apps/', pathNot: '^apps/$1/' },
    ),
    layer(
      'sandbox-imports-the-contract-only',
      'The sandbox imitates the service from its contract, never from the client, so the two cannot agree on a mistake.',
      { path: '^sandbox/' },
      { path: PRODUCT, pathNot: '^(sandbox/|src/contract/|src/[^/]+\\.ts$)' },
    ),
    layer(
      'product-not-tests',
      'Tests, their harness (testing/) and the lab use the product, never the reverse.',
      { path: PRODUCT },
      { path: '^(test|testing|lab)/' },
    ),
    layer(
      'the-harness-serves-tests-and-the-lab',
      'testing/ brings up what the tests and the lab run against; it imports neither of them.',
      { path: '^testing/' },
      { path: '^(test|lab)/' },
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
