import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import { readFileSync } from 'node:fs';

/**
 * The strings of a `export const NAME = ['a', 'b'] as const;` list in contract/, read as text (this
 * file runs without TypeScript): the rules below name what contract/ names, so a variant or author
 * kind added there is refused in a name comparison at once.
 */
function contractList(file, name) {
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const list = new RegExp(`export const ${name} = \\[([^\\]]*)\\]`).exec(text);
  if (!list) throw new Error(`eslint.config.js: no list ${name} in ${file}`);
  return [...list[1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
}
/** The calls that start a timer, by their name or their method's. */
const TIMER_CALLS = 'repeat|delay|keyedThrottle|setTimeout|setInterval|useNow|sleep';

/**
 * A timer's time has a name: SPEC's in contract/timings.ts under SPEC's name, where the exports-used
 * test sees it; one of ours there or as a named constant beside its code. A number written where a
 * timer starts (`repeat(clock, 20_000, run)`, `setTimeout(f, 2 * 1000)`) is a timing nobody finds.
 */
const TIMER_RULES = [
  `CallExpression[callee.name=/^(${TIMER_CALLS})$/] > Literal[value>0]`,
  `CallExpression[callee.property.name=/^(${TIMER_CALLS})$/] > Literal[value>0]`,
  `CallExpression[callee.name=/^(${TIMER_CALLS})$/] > BinaryExpression:not(:has(Identifier))`,
  `CallExpression[callee.property.name=/^(${TIMER_CALLS})$/] > BinaryExpression:not(:has(Identifier))`,
].map((selector) => ({
  selector,
  message: "Name the timer's time (SPEC's in contract/timings.ts, imported under its name).",
}));

/**
 * A text a person reads is written in its screen's texts module (or one text module), once: words
 * written in a component's markup, or in its label, placeholder, title or alt, are refused.
 */
const WORDS = '/[A-Za-zÅÄÖåäö]{2,}/';
const READ_ATTRIBUTES =
  'JSXAttribute[name.name=/^(aria-label|aria-description|aria-placeholder|placeholder|title|alt)$/]';
const SCREEN_TEXT_RULES = [
  `JSXText[value=${WORDS}]`,
  `${READ_ATTRIBUTES} > Literal`,
  // The same words as an expression: {'…'} or a template with words in it.
  `:matches(JSXElement, JSXFragment) > JSXExpressionContainer > Literal[value=${WORDS}]`,
  `${READ_ATTRIBUTES} > JSXExpressionContainer > Literal`,
  `:matches(JSXElement, JSXFragment, ${READ_ATTRIBUTES}) > JSXExpressionContainer > TemplateLiteral:has(TemplateElement[value.raw=${WORDS}])`,
].map((selector) => ({
  selector,
  message: "Write the screen's text in its texts module and use it from there.",
}));

const VARIANT_NAMES = contractList('./contract/variant.ts', 'APP_VARIANTS').join('|');
const AUTHOR_KIND_NAMES = contractList('./contract/conversations.ts', 'MESSAGE_AUTHOR_KINDS').join('|');

/** The server's features: each a folder with its child and staff routes and what they share. */
const SERVER_FEATURES = [
  './server/conversations',
  './server/meetings',
  './server/peers',
  './server/notifications',
  './server/profile',
  './server/assistant',
];
/** What composes the server: the portal plugin, the app, its entry points and the timers. */
const SERVER_TOP = [
  './server/portal.ts',
  './server/app.ts',
  './server/main.ts',
  './server/client-page.ts',
  './server/rotate-signing-key.ts',
  './server/jobs',
];

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
    // The folder rules: what each folder may import of ours (README, "Folders and what they may
    // import"). npm packages are free everywhere; the zones name our folders only.
    files: ['**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
      'import/extensions': ['.ts', '.tsx', '.js'],
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // No import cycle anywhere (the rule follows value imports; `import type` is erased at build).
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './contract',
              from: './',
              except: ['./contract', './node_modules'],
              message: 'contract/ imports nothing of ours.',
            },
            {
              target: './server',
              from: './',
              except: ['./server', './contract', './node_modules'],
              message: 'server/ imports only contract/ and its own files.',
            },
            // Inside the server: a ground floor (db, auth, security, files, hub, http and the root's
            // config, context and errors), features above it, and on top the portal plugin, the app
            // and the jobs that compose them (docs/server.md, "Folders inside server/").
            {
              target: [
                './server/db',
                './server/auth',
                './server/security',
                './server/files',
                './server/hub',
                './server/http',
                './server/staff',
                './server/push',
              ],
              from: [...SERVER_FEATURES, ...SERVER_TOP],
              message: "The server's ground floor imports no feature and nothing that composes them.",
            },
            {
              target: SERVER_FEATURES,
              from: SERVER_TOP,
              message:
                'A feature imports the ground floor and the features below it, never what composes it.',
            },
            // Features in layers: peers, notifications and the assistant stand alone; conversations
            // may tell notifications; meetings and profile build on conversations.
            ...['./server/peers', './server/notifications', './server/assistant'].map((target) => ({
              target,
              from: SERVER_FEATURES.filter((f) => f !== target),
              message: 'This feature stands alone: it imports no other feature.',
            })),
            {
              target: './server/conversations',
              from: SERVER_FEATURES.filter(
                (f) => !['./server/conversations', './server/notifications'].includes(f),
              ),
              message: 'Conversations build on notifications only; meetings and profile build on them.',
            },
            ...['./server/meetings', './server/profile'].map((target) => ({
              target,
              from: SERVER_FEATURES.filter(
                (f) => !['./server/conversations', './server/notifications', target].includes(f),
              ),
              message: 'Meetings and profile build on conversations and notifications, not on each other.',
            })),
            {
              // A route module (…-routes.ts) is registered by the portal plugin only: what two features
              // share lives in a module of its own (wire, writes, board, notify), never in a route file.
              target: ['./server/*/**', './server/!(portal).ts'],
              from: ['./server/**/*-routes.ts'],
              message: 'Import the shared piece, not a route module: only server/portal.ts registers routes.',
            },
            {
              target: './client-kit',
              from: './',
              except: ['./client-kit', './contract', './node_modules'],
              message: 'client-kit/ imports only contract/ and npm packages.',
            },
            {
              target: './worker',
              from: './',
              except: ['./worker', './contract', './client-kit', './node_modules'],
              message: 'worker/ imports only contract/, the DOM-free parts of client-kit/ and its own files.',
            },
            {
              target: './worker',
              from: [
                './client-kit/dialogs',
                './client-kit/files',
                './client-kit/chat-limit',
                './client-kit/theme/global-styles.ts',
              ],
              message:
                'The worker may import only the DOM-free parts of client-kit/ (hub, http, time, tokens).',
            },
            // Inside the worker: its ground floor (worker/base/: the database, the results, the row
            // types, the at-rest sealing) imports nothing above it; the page's bridge
            // (worker/client/) is for the page and the worker's entry, never for the worker's own parts.
            {
              target: './worker/base',
              from: './worker',
              except: ['./base'],
              message:
                "The worker's ground floor (worker/base/) imports only itself, contract/ and client-kit/.",
            },
            {
              target: ['./worker/!(client)/**', './worker/!(entry).ts'],
              from: './worker/client',
              message:
                "The page's bridge (worker/client/) is not for the worker's own parts: import worker/base/.",
            },
            {
              target: './src',
              from: './',
              except: ['./src', './worker/client', './client-kit', './contract', './node_modules'],
              message: 'src/ reaches the worker only through worker/client; else contract/ and client-kit/.',
            },
            {
              target: './staff-console',
              from: './',
              except: ['./staff-console', './client-kit', './contract', './node_modules'],
              message: 'The staff console imports only contract/, client-kit/ and its own files.',
            },
            {
              target: './sw',
              from: './',
              except: ['./sw', './contract', './node_modules'],
              message: 'The service worker imports only contract/ and its own files.',
            },
            // The harness (the server process, the test client, the fault proxy, PostgreSQL and Redis
            // of their own, the cluster, Chromium, the page models and actors) is what the tests, the
            // benchmarks and the browser tests share: it imports none of them, and they import one
            // another only where a test tests a benchmark's or a browser test's own code.
            {
              target: './harness',
              from: ['./tests', './bench', './e2e'],
              message: 'harness/ is shared by tests/, bench/ and e2e/: it imports none of them.',
            },
            {
              target: './bench',
              from: ['./tests', './e2e'],
              message: 'bench/ shares with tests/ and e2e/ through harness/ only.',
            },
            {
              target: './e2e',
              from: ['./tests', './bench'],
              message: 'e2e/ shares with tests/ and bench/ through harness/ only.',
            },
            {
              target: './tests/!(bench)/**',
              from: './bench',
              message:
                'Only tests/bench/ (the tests of the benchmarks) imports bench/: share through harness/.',
            },
            {
              target: './tests/!(e2e-support)/**',
              from: './e2e',
              message:
                "Only tests/e2e-support/ (the tests of e2e's helpers) imports e2e/: share through harness/.",
            },
          ],
        },
      ],
    },
  },
  {
    // A sync module's repeating timer is the session's (SyncContext.repeat), which the core ends
    // with the session: one started on the bare clock could outlive its user. Its other timers are
    // a throttle (hub/throttle.ts) or `delay`, which end by themselves; a timer of its own making
    // (setTimeout, setInterval, on the clock or not) is refused, so none is left at a sign-out.
    files: ['worker/sync/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['setTimeout', 'setInterval'].map((name) => ({
          name,
          message: "A module's timers are ctx.repeat, a throttle or delay.",
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['setTimeout', 'setInterval'].map((property) => ({
          property,
          message: "A module's timers are ctx.repeat, a throttle or delay.",
        })),
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // worker/clock.ts by any relative path, with or without its extension.
              regex: '^(\\.\\.?/)+clock(\\.ts)?$',
              importNames: ['repeat'],
              message: "Use ctx.repeat: the session's timers end with it.",
            },
          ],
        },
      ],
    },
  },
  {
    // The timer rule (TIMER_RULES) where the rule of names below does not reach.
    files: ['client-kit/**/*.{ts,tsx}', 'sw/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...TIMER_RULES] },
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
        ...TIMER_RULES,
        ...SCREEN_TEXT_RULES,
        {
          selector:
            ':not(TSLiteralType) > Literal[value=/^(New|Responded|OnHold|InProgress|Resolved|Closed|Cancelled|NotStarted|Completed)$/]',
          message: 'Name the state through contract/ (CONVERSATION_STATE, MEETING_STATE or a predicate).',
        },
        {
          selector: `:not(TSLiteralType) > Literal[value=/^(${VARIANT_NAMES})$/]`,
          message: "Ask the variant's features (contract/variant.ts), not its name.",
        },
        {
          // The server's APP_VARIANT keys are the same names in lower case: a comparison with a
          // `variant` in any spelling is a gate on the name.
          selector: `BinaryExpression:has(MemberExpression[property.name='variant']) > Literal[value=/^(${VARIANT_NAMES})$/i]`,
          message: "Ask the variant's features (contract/variant.ts), not its name.",
        },
        {
          // A message's author kind (authorKind on the wire, author_kind in the database) is asked
          // through contract/author-kinds.ts: a comparison or a case with a kind's name is a gate on it.
          selector: `BinaryExpression:has(MemberExpression[property.name=/^(authorKind|author_kind)$/]) > Literal[value=/^(${AUTHOR_KIND_NAMES})$/], SwitchStatement[discriminant.property.name=/^(authorKind|author_kind)$/] > SwitchCase > Literal.test`,
          message:
            'Ask the author kind through contract/author-kinds.ts (AUTHOR_KINDS or a predicate), not its name.',
        },
      ],
    },
  },
);
