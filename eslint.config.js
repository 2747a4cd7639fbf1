import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'docs/', 'test/histories/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'src/codec/*.cjs', '.dependency-cruiser.cjs'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A forgotten `await` on a Temporal or HTTP call is a bug, not a style choice.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The console's one browser script: plain JavaScript served as is, with the browser's globals.
    files: ['apps/console/assets/**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      parserOptions: { projectService: false, program: null },
      sourceType: 'script',
      globals: { document: 'readonly', location: 'readonly', setTimeout: 'readonly' },
    },
  },
  {
    // Workflow code is replayed: it may import only the workflow SDK, the workflow-safe common package, sibling
    // workflow files, and types. Node built-ins and I/O libraries break determinism. The contract is types only: its
    // modules hold zod schemas, which cost a fifth of the worker's CPU when the workflow ran them, and a schema run on
    // replay would let a contract change alter the path of a running workflow (issue 12). The edges validate.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          // A change to workflow code is a new Worker Deployment version: every workflow stays on the code it started
          // with, so no branch for older histories is needed (docs/developing/changing-workflows.md).
          paths: [
            {
              name: '@temporalio/workflow',
              importNames: ['patched', 'deprecatePatch'],
              message:
                'Ship a workflow change as a new worker version, not behind patched() (docs/developing/changing-workflows.md).',
            },
          ],
          patterns: [
            {
              // zod is left out here so that the next pattern, which allows no type import, is the one that applies.
              regex:
                '^(?!@temporalio/workflow$|@temporalio/common$|\\./|\\.\\./(shared|verification|batch|governor)/|zod(/|$))',
              allowTypeImports: true,
              message:
                'Workflow code may import only @temporalio/workflow, @temporalio/common and workflow files; anything else (src/contract, activities) as `import type` only (determinism, no zod in the bundle).',
            },
            {
              regex: '^zod(/|$)',
              message:
                'No zod in workflow code, not even its types: the edges validate, the workflow takes the parsed type.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use sleep() in a loop.' },
        { name: 'process', message: 'Workflow code has no process; pass values as inputs.' },
      ],
    },
  },
  {
    // The sandbox imitates the service on its own: it shares the contract with the client, never the client's code,
    // so the two sides cannot agree on a mistake (docs/developing/architecture.md).
    files: ['sandbox/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../client', '../client/*', '../../client', '../../client/*', '**/src/client', '**/src/client/*'],
              message: 'The sandbox may import src/contract, never src/client.',
            },
          ],
        },
      ],
    },
  },
  {
    // Configuration, logging and text tables are the bottom of src/: they import nothing of the project but each other,
    // which is why the import-cycle check (.dependency-cruiser.cjs) can leave them out.
    files: ['src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./|^\\./[^/]+/',
              message: 'Files directly in src/ import only each other (and packages): they are the bottom layer.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['eslint.config.js', 'bin/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Converters the SDK loads with require(): plain CommonJS.
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', exports: 'writable', module: 'writable' },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // mocha's describe/it return values are not promises to await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'mocha', name: ['describe', 'it'] }] },
      ],
    },
  },
);
