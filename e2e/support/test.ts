import { expect, test as base, type Browser, type BrowserContext } from '@playwright/test';

// Every spec imports `test` and `expect` from here: each page of each browser context a test opens
// (its own `page`, `context.newPage()`, `browser.newContext()`) reports the browser-policy
// violations it sees, and a test that saw any fails (issue 13: 0 violations on every screen).
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

async function watch(context: BrowserContext, violations: PolicyViolation[]) {
  if (watched.has(context)) return;
  watched.add(context);
  await context.exposeBinding(REPORT_BINDING, (_source, violation: PolicyViolation) => {
    violations.push(violation);
  });
  await context.addInitScript(reportViolations, REPORT_BINDING);
  // A violation the page's script cannot see (a frame's, or one raised before the listener) still
  // reaches the console.
  context.on('console', (message) => {
    const text = message.text();
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

export const test = base.extend<{ policyViolations: PolicyViolation[] }>({
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
      expect(violations, 'Content-Security-Policy or Trusted Types violations').toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, policyViolations }, use) => {
    await watch(context, policyViolations);
    await use(context);
  },
});

export { expect };
