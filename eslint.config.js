import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
    },
  },
  {
    // The folder rules of ARCHITECTURE.md: contract imports nothing of ours; server, worker only contract.
    files: ['contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['../server/*', '../worker/*', '../src/*', '../../*'] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/worker/**', '**/src/**', '**/sw/**'] }],
    },
  },
  {
    // client-kit/ is what the child app and the staff console share: it may import contract/ and npm
    // packages, nothing else of ours. The staff console adds client-kit/ and its own files.
    files: ['client-kit/**/*.{ts,tsx}', 'staff-console/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './client-kit',
              from: './',
              except: ['./client-kit', './contract', './node_modules'],
              message: 'client-kit/ imports only contract/ and npm packages.',
            },
            {
              target: './staff-console',
              from: './',
              except: ['./staff-console', './client-kit', './contract', './node_modules'],
              message: 'The staff console imports only contract/, client-kit/ and its own files.',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker runs without a DOM: of client-kit/ it may use the DOM-free parts only.
    files: ['worker/**/*.ts'],
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './worker',
              from: ['./client-kit/dialogs', './client-kit/theme/global-styles.ts'],
              message:
                'The worker may import only the DOM-free parts of client-kit/ (hub, http, time, tokens).',
            },
          ],
        },
      ],
    },
  },
  {
    // A conversation or meeting state, or a variant's name, is spelled in contract/ only: elsewhere
    // code names CONVERSATION_STATE.x, MEETING_STATE.x, a predicate, or the variant's features.
    // Type positions (a union in an interface) are left alone; texts.ts holds Swedish, where 'Chatt'
    // is a word, not a variant.
    files: [
      'server/**/*.{ts,tsx}',
      'worker/**/*.{ts,tsx}',
      'src/**/*.{ts,tsx}',
      'staff-console/**/*.{ts,tsx}',
    ],
    ignores: ['**/texts.ts', 'server/db/migrations/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            ':not(TSLiteralType) > Literal[value=/^(New|Responded|OnHold|InProgress|Resolved|Closed|Cancelled|NotStarted|Completed)$/]',
          message: 'Name the state through contract/ (CONVERSATION_STATE, MEETING_STATE or a predicate).',
        },
        {
          selector: ':not(TSLiteralType) > Literal[value=/^(Barn|Gruppstod|Chatt|Peers|Assistent|Main)$/]',
          message: "Ask the variant's features (contract/variant.ts), not its name.",
        },
      ],
    },
  },
);
