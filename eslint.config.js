import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'lib/', '.data/', 'docs/', 'test/histories/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'bin/*.js', 'src/codec/*.cjs'] },
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
    // Workflow code is replayed: it may import only the workflow SDK, the workflow-safe common package, the
    // contract, sibling workflow files, and types. Node built-ins and I/O libraries break determinism.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!@temporalio/workflow$|@temporalio/common$|\\./|\\.\\./src/contract/)',
              allowTypeImports: true,
              message:
                'Workflow code may import only @temporalio/workflow, @temporalio/common, src/contract, sibling workflow files and types (determinism).',
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
    // so the two sides cannot agree on a mistake (DESIGN §1).
    files: ['src/sandbox/**/*.ts'],
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
