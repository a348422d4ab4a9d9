import { useConfig } from '../config/runtime-config.tsx';
import { useProfile } from '../data/index.ts';
import { PageLayout } from '../shell/page-layout.tsx';
import { SETTINGS_TEXTS } from './texts.ts';

/** Route '/installningar' (the header's gear button). */
export function SettingsPage() {
  const config = useConfig();
  const profile = useProfile();
  return (
    <PageLayout title={SETTINGS_TEXTS.heading} backButton>
      <h1>{SETTINGS_TEXTS.heading}</h1>
      <section aria-labelledby="settings-account">
        <h2 id="settings-account">{SETTINGS_TEXTS.account}</h2>
        {profile && (
          <p>
            {SETTINGS_TEXTS.signedInAs} <strong>{profile.username}</strong>
          </p>
        )}
      </section>
      <section aria-labelledby="settings-app">
        <h2 id="settings-app">{SETTINGS_TEXTS.app}</h2>
        <p>
          {config.providerName}, {SETTINGS_TEXTS.version.toLowerCase()} {config.version}
        </p>
      </section>
    </PageLayout>
  );
}
