import { useConfig } from '../config/runtime-config.tsx';
import { isGroupStyle } from '../config/variant.ts';
import { useProfile } from '../data/live-queries.ts';
import { PageLayout } from '../header/page-layout.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { DeleteAccount } from './delete-account.tsx';
import { ProfileDetailsForm } from './profile-details-form.tsx';
import { SETTINGS_TEXTS } from './texts.ts';
import * as s from './settings.styles.ts';

/** Route '/installningar' (the header's gear button). */
export function SettingsPage() {
  const config = useConfig();
  const profile = useProfile();
  return (
    <PageLayout title={SETTINGS_TEXTS.heading} backButton>
      <h1>{SETTINGS_TEXTS.heading}</h1>
      <section className={s.section} aria-labelledby="settings-account">
        <h2 id="settings-account">{SETTINGS_TEXTS.account}</h2>
        {profile && (
          <p>
            {SETTINGS_TEXTS.signedInAs} <strong>{profile.loginName ?? profile.username}</strong>
          </p>
        )}
      </section>
      {/* Group participants (personal codes) gave no birth year or gender, and have no password. */}
      {!isGroupStyle(config) && (
        <section className={s.section} aria-labelledby="settings-about-you">
          <h2 id="settings-about-you">{SETTINGS_TEXTS.aboutYou}</h2>
          <ProfileDetailsForm />
        </section>
      )}
      {!isGroupStyle(config) && (
        <section className={s.section} aria-labelledby="settings-change-password">
          <h2 id="settings-change-password">{SETTINGS_TEXTS.changePassword}</h2>
          <ChangePasswordForm />
        </section>
      )}
      <DeleteAccount />
      <section className={s.section} aria-labelledby="settings-app">
        <h2 id="settings-app">{SETTINGS_TEXTS.app}</h2>
        <p>
          {config.providerName}, {SETTINGS_TEXTS.version.toLowerCase()} {config.version}
        </p>
      </section>
    </PageLayout>
  );
}
