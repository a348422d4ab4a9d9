import { Redirect, useSearch } from 'wouter';
import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle, registerStyle } from '../config/variant.ts';
import { useSession } from '../data/index.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { CreateAccountForm } from './create-account-form.tsx';
import { CREATE_ACCOUNT_TEXTS } from './texts.ts';

type Style = keyof typeof CREATE_ACCOUNT_TEXTS.purpose;

function isStyle(value: string | null): value is Style {
  return value === 'peers' || value === 'chat' || value === 'mail';
}

/** Route '/skapa-konto?style=peers|chat|mail'; there is no registration in group support. */
export function CreateAccountPage() {
  const config = useConfig();
  const { status } = useSession();
  const requested = new URLSearchParams(useSearch()).get('style');
  if (isGroupStyle(config)) return <Redirect to="/" replace />;
  const style = isStyle(requested) ? requested : registerStyle(config);
  return (
    <PageLayout title={CREATE_ACCOUNT_TEXTS.heading} backButton>
      <h1>{CREATE_ACCOUNT_TEXTS.heading}</h1>
      <p>{CREATE_ACCOUNT_TEXTS.purpose[style]}</p>
      {status === 'authenticated' ? (
        <p>{CREATE_ACCOUNT_TEXTS.alreadyLoggedIn}</p>
      ) : (
        <>
          <p>{CREATE_ACCOUNT_TEXTS.anonymous}</p>
          <CreateAccountForm />
        </>
      )}
    </PageLayout>
  );
}
