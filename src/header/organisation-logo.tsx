import { useState } from 'react';
import { useLocation } from 'wouter';
import { useProvider } from '../config/runtime-config.tsx';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { OrganisationLogo as Logo } from '../ui-kit/icons.tsx';
import { installedAsApp } from '../ui-kit/installed-as-app.ts';
import { HEADER_TEXTS } from './texts.ts';
import * as s from './page-header.styles.ts';

/**
 * SPEC §2: the organisation's logo leads to its website, after a confirmation; installed as an app
 * it leads to the start page instead, since leaving the app would close it.
 */
export function OrganisationLogoButton() {
  const provider = useProvider();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);

  const onClick = () => {
    if (installedAsApp()) navigate('/');
    else setConfirming(true);
  };

  return (
    <>
      <button
        type="button"
        className={s.organisationLogo}
        aria-label={HEADER_TEXTS.organisationLogo + provider.name}
        onClick={onClick}
      >
        <Logo />
      </button>
      <ConfirmationDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onResult={(yes) => {
          if (yes) window.location.assign(provider.url);
        }}
        title={HEADER_TEXTS.leaveTitle}
        text={`${HEADER_TEXTS.leaveText}${provider.name}?`}
        yes={HEADER_TEXTS.leaveYes}
        no={HEADER_TEXTS.leaveNo}
      />
    </>
  );
}
