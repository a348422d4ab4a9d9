import { useEffect, type ReactNode } from 'react';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useApi, useSession } from '../data/index.ts';
import { reportUiErrorsTo } from '../errors/ui-error-reporting.ts';
import { Toasts } from '../dialogs/toasts.tsx';
import { AssistantHost } from '../assistant/assistant-host.tsx';
import { startPwa } from '../pwa/index.ts';
import { ChildChatHost } from '../one-to-one-chat/child-chat-host.tsx';
import { InstallModal } from '../pwa/install-modal.tsx';
import { NoticeClicks } from '../pwa/notice-clicks.tsx';
import { NavigationEffects } from '../routes/navigation-effects.tsx';
import { SessionEffects } from '../routes/session-effects.tsx';
import { SharedDeviceIdleSignOut } from '../shared-device/idle-sign-out.tsx';
import { globalStyles } from '../styles/theme.ts';
import { PageErrorBoundary } from './page-error-boundary.tsx';
import { SiteFooter } from './site-footer.tsx';
import { QuickExitButton, QuickExitKeys } from '../quick-exit/quick-exit-button.tsx';
import { hasUnsavedFormData, watchFormInput } from './unsaved-form-data.ts';
import { rescueLostFocus } from './focus-rescue.ts';
import { shell, skipLink, content } from './root-shell.styles.ts';
import { preloadPages } from './lazy-pages.ts';
import { SHELL_TEXTS } from './texts.ts';

/** SPEC §2 Root shell: the routed page, the footer and the app-wide dialogs. */
export function RootShell({ children }: { children: ReactNode }) {
  const config = useConfig();
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
  useEffect(() => {
    startPwa({ production: config.production, hasUnsavedFormData });
  }, [config.production]);
  // Once the first screen is drawn (the session is known, so the start page is no longer a spinner)
  // and idle: this variant's other pages (routes/app-routes.tsx), for a quick and an offline next
  // step. Not earlier: on a first visit the main thread idles while the database opens, and their
  // fetches would compete with the first screen's (issue 15).
  const sessionKnown = status !== 'unknown';
  useEffect(() => (sessionKnown ? preloadPages(config) : undefined), [config, sessionKnown]);

  return (
    <div className={`${globalStyles} ${shell}`}>
      <a className={skipLink} href="#main">
        {SHELL_TEXTS.skipToContent}
      </a>
      <QuickExitButton placement="page" />
      <QuickExitKeys />
      <NavigationEffects />
      <NoticeClicks />
      <SessionEffects />
      <SharedDeviceIdleSignOut />
      <div className={content}>{children}</div>
      <SiteFooter />
      {status === 'authenticated' && !isGroupStyle(config) && (
        <PageErrorBoundary>
          <ChildChatHost />
        </PageErrorBoundary>
      )}
      {/* A failed render of the assistant must not blank the page under it. */}
      <PageErrorBoundary>
        <AssistantHost />
      </PageErrorBoundary>
      <Toasts />
      <InstallModal />
    </div>
  );
}
