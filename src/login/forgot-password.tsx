import { useId, useState } from 'react';
import { Link } from 'wouter';
import { linkButton } from '../styles/controls.ts';
import { LOGIN_TEXTS } from './texts.ts';
import * as s from './login-form.styles.ts';

/**
 * 'Glömt lösenord?' under the password field. Accounts are anonymous and have no e-mail address, so
 * no new password can be sent: a disclosure button (aria-expanded) shows, in place, what to do instead.
 * `registerHref` is the form's own create-account link, left out where registration is hidden.
 */
export function ForgotPassword({ registerHref }: { registerHref: string | null }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className={s.forgotPassword}>
      <button
        type="button"
        className={linkButton}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
      >
        {LOGIN_TEXTS.forgotPassword}
      </button>
      <div id={panelId} className={s.forgotPasswordPanel} hidden={!open}>
        <p>{LOGIN_TEXTS.forgotPasswordNoEmail}</p>
        <p>{LOGIN_TEXTS.forgotPasswordNewAccount}</p>
        {registerHref && (
          <p>
            <Link href={registerHref}>{LOGIN_TEXTS.forgotPasswordCreateAccount}</Link>
          </p>
        )}
      </div>
    </div>
  );
}
