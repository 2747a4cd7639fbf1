// The import-cycle check of `npm run lint` (dependency-cruiser): no cycle between folders, none between modules.
//
// - Folders: `scope: 'folder'` counts an import from one folder into another as an edge between the two (a folder
//   includes its subfolders), so `src/dev -> src/cli -> src/dev` fails even when no module imports itself back.
// - Only imports that exist at run time count: type-only imports are erased by TypeScript (`tsPreCompilationDeps:
//   false`). The one place that matters: workflows import the activities' *type* to proxy them, as Temporal's samples
//   do, while activities import the workflows' failure-type list.
// - The files directly in `src/` (config, logging, text tables) are left out: being in `src/` itself, each would make
//   `src` a folder that every area imports, hiding real cycles among the areas. ESLint keeps them leaves (they import
//   nothing of the project but each other), so they cannot close a cycle.
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Folders depend on each other in one direction only; move the shared piece to the lower folder.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/[^/]+\\.ts$', '^node_modules/'] },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
