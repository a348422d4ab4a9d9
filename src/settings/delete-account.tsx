import { useState } from 'react';
import { failure } from '../../worker/client/result.ts';
import { useLocation } from 'wouter';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { showToast } from '../dialogs/toast-store.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { SETTINGS_TEXTS as T } from './texts.ts';
import * as s from './settings.styles.ts';

/** Delete account: a confirmation that says what is erased, then signed out to /utloggad. */
export function DeleteAccount() {
  const api = useApi();
  const [, navigate] = useLocation();
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const onResult = async (confirmed: boolean) => {
    if (!confirmed) return;
    setDeleting(true);
    const result = await api.deleteAccount().catch((error: unknown) => {
      console.error('Delete account failed', error);
      return failure('failed');
    });
    if (result.ok) {
      navigate('/utloggad');
      return;
    }
    setDeleting(false);
    showToast(result.code === 'offline' ? T.offline : T.deleteFailed, { kind: 'error' });
  };

  return (
    <section className={s.section} aria-labelledby="settings-delete-account">
      <h2 id="settings-delete-account">{T.deleteAccount}</h2>
      <p>{T.deleteAccountText}</p>
      {deleting ? (
        <Spinner label={T.deleting} />
      ) : (
        <button type="button" className={s.dangerButton} onClick={() => setConfirming(true)}>
          {T.deleteButton}
        </button>
      )}
      <ConfirmationDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        onResult={(confirmed) => void onResult(confirmed)}
        title={T.deleteTitle}
        text={T.deleteConfirmText}
        yes={T.deleteYes}
        no={T.deleteNo}
      />
    </section>
  );
}
