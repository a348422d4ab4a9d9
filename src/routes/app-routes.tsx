import { Redirect, Route, Switch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { CreateAccountPage } from '../create-account/create-account-page.tsx';
import { LoggedOutPage } from '../logged-out/logged-out-page.tsx';
import { NewPostPage } from '../mail/new-post-page.tsx';
import { ThreadPage } from '../mail/thread-page.tsx';
import { MeetingDetailPage } from '../meeting-detail/meeting-detail-page.tsx';
import { MyPagesPage } from '../my-pages/my-pages-page.tsx';
import { SettingsPage } from '../settings/settings-page.tsx';
import { StartPage } from '../start/start-page.tsx';
import { RequireAuth } from './guard.tsx';

/** The routes of SPEC §2; anything else goes to the start page. */
export function AppRoutes() {
  const group = isGroupStyle(useConfig());
  return (
    <Switch>
      <Route path="/">
        <StartPage />
      </Route>
      <Route path="/start">{group ? <Redirect to="/" replace /> : <StartPage />}</Route>
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
      <Route path="/mina-sidor/nytt-inlagg">
        <RequireAuth>
          <NewPostPage />
        </RequireAuth>
      </Route>
      <Route path="/mina-sidor/inlagg/:id">
        {(params) => (
          <RequireAuth>
            <ThreadPage id={params.id} />
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
  );
}
