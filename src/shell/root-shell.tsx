import { Suspense, useEffect, type ReactNode } from 'react';
import type { RuntimeConfig } from '../../contract/config.ts';
import { useOptionalConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useApi, useSession } from '../data/index.ts';
import { reportUiErrorsTo } from '../errors/ui-error-reporting.ts';
import { Toasts } from '../dialogs/toasts.tsx';
import { AssistantHost } from '../assistant/assistant-host.tsx';
import { startPwa } from '../pwa/index.ts';
import { InstallModal } from '../pwa/install-modal.tsx';
import { NoticeClicks } from '../pwa/notice-clicks.tsx';
import { WebPushKeeper } from '../pwa/web-push-keeper.tsx';
import { NavigationEffects } from '../routes/navigation-effects.tsx';
import { SessionEffects } from '../routes/session-effects.tsx';
import { SharedDeviceIdleSignOut } from '../shared-device/idle-sign-out.tsx';
import { globalStyles } from '../styles/theme.ts';
import { PageErrorBoundary } from '../ui-kit/page-error-boundary.tsx';
import { keepWritingInView } from '../ui-kit/keep-writing-in-view.ts';
import { SiteFooter } from './site-footer.tsx';
import { QuickExitButton, QuickExitKeys } from '../quick-exit/quick-exit-button.tsx';
import { QUICK_EXIT_STRIP_HEIGHT } from '../quick-exit/quick-exit.styles.ts';
import { hasUnsavedFormData, watchFormInput } from '../ui-kit/unsaved-form-data.ts';
import { rescueLostFocus } from './focus-rescue.ts';
import { shell, skipLink, content } from './root-shell.styles.ts';
import { lazyPage, preloadPages } from '../ui-kit/lazy-pages.ts';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';

// Signed in only, with the data layer (the app chunk): the one-to-one chat window's host.
const ChildChatHost = lazyPage(
  () => import('../one-to-one-chat/child-chat-host.tsx'),
  (m) => m.ChildChatHost,
  (config) => !isGroupStyle(config),
  { withDataLayer: true },
);

/**
 * SPEC §2 Root shell: the routed page and the footer, and 'Lämna sidan' above every page. The
 * first HTML carries this shell (rendered at build time, src/prerender.tsx): the quick exit and the
 * footer are the same elements from the first paint on, and what the configured app adds comes
 * once the runtime config is in.
 */
export function RootShell({ children }: { children: ReactNode }) {
  const config = useOptionalConfig();
  return (
    <div className={`${globalStyles} ${shell}`}>
      <a className={skipLink} href="#main">
        {SHELL_TEXTS.skipToContent}
      </a>
      <QuickExitButton placement="page" />
      <QuickExitKeys />
      <div className={content}>{children}</div>
      <SiteFooter />
      {config && <AppWide config={config} />}
    </div>
  );
}

/** What the configured app adds to every page: its effects, the chat and assistant hosts, dialogs. */
function AppWide({ config }: { config: RuntimeConfig }) {
  const { status } = useSession();
  const api = useApi();

  useEffect(() => watchFormInput(), []);
  useEffect(
    () =>
      reportUiErrorsTo((report) => {
        api.reportError(report).catch((error: unknown) => console.warn('UI error not logged', error));
      }),
    [api],
  );
  useEffect(() => rescueLostFocus(), []);
  useEffect(() => keepWritingInView({ topInset: QUICK_EXIT_STRIP_HEIGHT }), []);
  useEffect(() => {
    startPwa({ production: config.production, hasUnsavedFormData });
  }, [config.production]);
  // Once the first screen is drawn (the session is known, so the start page is no longer the neutral
  // shell) and idle: this variant's other pages (routes/app-routes.tsx), for a quick and an offline
  // next step. Not earlier: their fetches would compete with the first screen's.
  const sessionKnown = status !== 'unknown';
  useEffect(() => (sessionKnown ? preloadPages(config) : undefined), [config, sessionKnown]);

  return (
    <>
      <NavigationEffects />
      <NoticeClicks />
      <WebPushKeeper production={config.production} />
      <SessionEffects />
      <SharedDeviceIdleSignOut />
      {status === 'authenticated' && !isGroupStyle(config) && (
        <PageErrorBoundary>
          <Suspense fallback={null}>
            <ChildChatHost />
          </Suspense>
        </PageErrorBoundary>
      )}
      {/* A failed render of the assistant must not blank the page under it. */}
      <PageErrorBoundary>
        <AssistantHost />
      </PageErrorBoundary>
      <Toasts />
      <InstallModal />
    </>
  );
}
