import { expect, test as base, type Browser, type BrowserContext } from '@playwright/test';
import { RECOVERABLE_ERROR } from '../../src/errors/ui-error-reporting.ts';
import { GroupLeader } from '../../harness/actors/group-leader.ts';

// Every spec imports `test` and `expect` from here: each page of each browser context a test opens
// (its own `page`, `context.newPage()`, `browser.newContext()`) reports the browser-policy
// violations it sees, and the errors React recovered from (a first render that did not match the
// first HTML), and a test that saw any fails: 0 violations and 0 hydration mismatches on every screen.
export * from '@playwright/test';

export interface PolicyViolation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
  page: string;
}

const REPORT_BINDING = '__reportPolicyViolation';

/** Runs in every document before its own scripts: forwards each violation to the test. */
function reportViolations(binding: string) {
  document.addEventListener('securitypolicyviolation', (e) => {
    const report = (window as unknown as Record<string, (v: unknown) => void>)[binding];
    report?.({
      directive: e.effectiveDirective,
      blocked: e.blockedURI,
      source: `${e.sourceFile}:${e.lineNumber}`,
      sample: e.sample,
      page: location.href,
    });
  });
}

const watched = new WeakSet<BrowserContext>();

/** React's production errors for a hydration that did not match (react.dev/errors/418 and kin). */
const REACT_HYDRATION_ERROR = /Minified React error #(418|419|421|422|423|425)\b/;

async function watch(context: BrowserContext, violations: PolicyViolation[]) {
  if (watched.has(context)) return;
  watched.add(context);
  await context.exposeBinding(REPORT_BINDING, (_source, violation: PolicyViolation) => {
    violations.push(violation);
  });
  await context.addInitScript(reportViolations, REPORT_BINDING);
  // A violation the page's script cannot see (a frame's, or one raised before the listener) still
  // reaches the console; so do React's hydration errors (src/main.tsx: onRecoverableError).
  context.on('console', (message) => {
    const text = message.text();
    if (
      message.type() === 'error' &&
      (text.startsWith(RECOVERABLE_ERROR) || REACT_HYDRATION_ERROR.test(text))
    ) {
      violations.push({
        directive: 'react',
        blocked: '',
        source: '',
        sample: text,
        page: message.page()?.url() ?? '',
      });
    }
    if (message.type() === 'error' && /Content Security Policy|Trusted Type/i.test(text)) {
      violations.push({
        directive: 'console',
        blocked: '',
        source: '',
        sample: text,
        page: message.page()?.url() ?? '',
      });
    }
  });
}

export const test = base.extend<{ policyViolations: PolicyViolation[]; groupLeader: GroupLeader }>({
  policyViolations: [
    async ({ browser }, use) => {
      const violations: PolicyViolation[] = [];
      // Contexts a spec makes itself are watched too, for this test only.
      const own = browser as Browser & { newContext: Browser['newContext'] };
      const newContext = browser.newContext;
      own.newContext = async (...args: Parameters<Browser['newContext']>) => {
        const context = await newContext.apply(browser, args);
        await watch(context, violations);
        return context;
      };
      try {
        await use(violations);
      } finally {
        delete (own as Partial<Browser>).newContext;
      }
      expect(violations, 'Content-Security-Policy or Trusted Types violations, or hydration errors').toEqual(
        [],
      );
    },
    { auto: true },
  ],
  context: async ({ context, policyViolations }, use) => {
    await watch(context, policyViolations);
    await use(context);
  },
  // The demo group leader, signed in. The meetings it made are removed after the test with a time
  // of their own: a test that ran out of its time still leaves the demo group as it found it.
  groupLeader: [
    async ({ request }, use) => {
      const leader = new GroupLeader(request);
      await leader.logIn();
      await use(leader);
      await leader.removeCreated();
    },
    { timeout: 20_000 },
  ],
});

export { expect };
