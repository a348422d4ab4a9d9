import { Redirect, useLocation, useSearch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { LoginForm } from '../login/login-form.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { LOGGED_OUT_TEXTS } from './texts.ts';
import * as s from './logged-out-page.styles.ts';

/** Route '/utloggad': after a logout, or with error=session_expired after an expired session. */
export function LoggedOutPage() {
  const config = useConfig();
  const expired = new URLSearchParams(useSearch()).get('error') === 'session_expired';
  const [, navigate] = useLocation();

  if (isGroupStyle(config)) return <Redirect to="/" replace />;

  return (
    <PageLayout>
      <h1>{LOGGED_OUT_TEXTS.heading}</h1>
      {expired ? (
        <p className={s.expired} role="status">
          {LOGGED_OUT_TEXTS.sessionExpired}
        </p>
      ) : (
        <p>{LOGGED_OUT_TEXTS.text}</p>
      )}
      <h2>{LOGGED_OUT_TEXTS.loginHeading}</h2>
      <LoginForm onSuccess={() => navigate('/start')} />
    </PageLayout>
  );
}
