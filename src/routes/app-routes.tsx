import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { StartPage } from '../start/start-page.tsx';
import { lazyPage } from '../ui-kit/lazy-pages.ts';
import { PageErrorBoundary } from '../ui-kit/page-error-boundary.tsx';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';
import { RequireAuth } from './guard.tsx';
import { mailPaths } from '../../contract/mail-paths.ts';

// Pages beyond the start page load on first use, so the first screen a child sees comes quickly;
// once it is idle, the rest of this variant's pages are fetched in the background (see lazyPage).
const LoggedOutPage = lazyPage(
  () => import('../logged-out/logged-out-page.tsx'),
  (m) => m.LoggedOutPage,
  (config) => !isGroupStyle(config),
);
const CreateAccountPage = lazyPage(
  () => import('../create-account/create-account-page.tsx'),
  (m) => m.CreateAccountPage,
  (config) => !isGroupStyle(config),
);
const NewPostPage = lazyPage(
  () => import('../mail/new-post-page.tsx'),
  (m) => m.NewPostPage,
  (config) => !isGroupStyle(config),
);
const ThreadPage = lazyPage(
  () => import('../mail/thread-page.tsx'),
  (m) => m.ThreadPage,
);
const NewPeerPostPage = lazyPage(
  () => import('../peers/new-peer-post-page.tsx'),
  (m) => m.NewPeerPostPage,
  (config) => config.features.peers,
);
const PeerPostPage = lazyPage(
  () => import('../peers/peer-post-page.tsx'),
  (m) => m.PeerPostPage,
  (config) => config.features.peers,
);
const MeetingDetailPage = lazyPage(
  () => import('../meeting-detail/meeting-detail-page.tsx'),
  (m) => m.MeetingDetailPage,
  isGroupStyle,
);
const MyPagesPage = lazyPage(
  () => import('../my-pages/my-pages-page.tsx'),
  (m) => m.MyPagesPage,
);
const SettingsPage = lazyPage(
  () => import('../settings/settings-page.tsx'),
  (m) => m.SettingsPage,
);

/** The routes of SPEC §2; anything else goes to the start page. */
export function AppRoutes() {
  const config = useConfig();
  const group = isGroupStyle(config);
  const peers = config.features.peers;
  const mail = mailPaths(config.features);
  return (
    <PageErrorBoundary>
      <Suspense fallback={<Spinner label={SHELL_TEXTS.loading} fullPage />}>
        <Switch>
          <Route path="/">
            <StartPage />
          </Route>
          <Route path="/start">{group ? <Redirect to="/" replace /> : <StartPage />}</Route>
          {/* Only a variant with groups has group routes: elsewhere an old link is an unknown address. */}
          {group && (
            <Route path="/tillfalle/:id">
              {(params) =>
                params.id ? (
                  <RequireAuth>
                    <MeetingDetailPage id={params.id} />
                  </RequireAuth>
                ) : (
                  <Redirect to="/" replace />
                )
              }
            </Route>
          )}
          <Route path="/utloggad">
            <LoggedOutPage />
          </Route>
          <Route path="/skapa-konto">
            <CreateAccountPage />
          </Route>
          <Route path="/installningar">
            <RequireAuth>
              <SettingsPage />
            </RequireAuth>
          </Route>
          {peers && (
            <Route path="/mina-sidor/nytt-inlagg">
              <RequireAuth>
                <NewPeerPostPage />
              </RequireAuth>
            </Route>
          )}
          {peers && (
            <Route path="/mina-sidor/inlagg/:id">
              {(params) => (
                <RequireAuth>
                  <PeerPostPage id={params.id} />
                </RequireAuth>
              )}
            </Route>
          )}
          {/* Mail to a counsellor: SPEC §2's post routes, or in Peers routes of its own (mail-paths.ts). */}
          <Route path={mail.newMail}>
            {/* Group participants may not start a post (the server answers 403): back to my pages. */}
            {group ? (
              <Redirect to="/mina-sidor" replace />
            ) : (
              <RequireAuth>
                <NewPostPage />
              </RequireAuth>
            )}
          </Route>
          <Route path={peers ? '/mina-sidor/meddelande/:id' : '/mina-sidor/inlagg/:id'}>
            {(params: { id?: string }) => (
              <RequireAuth>
                <ThreadPage id={params.id ?? ''} />
              </RequireAuth>
            )}
          </Route>
          <Route path="/mina-sidor">
            <RequireAuth>
              <MyPagesPage />
            </RequireAuth>
          </Route>
          <Route>
            <Redirect to="/" replace />
          </Route>
        </Switch>
      </Suspense>
    </PageErrorBoundary>
  );
}
