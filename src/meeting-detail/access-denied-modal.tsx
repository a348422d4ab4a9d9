import { useLocation } from 'wouter';
import { useApi } from '../data/index.ts';
import { Modal } from '../dialogs/modal.tsx';
import { actions } from '../dialogs/modal.styles.ts';
import { primaryButton } from '../styles/controls.ts';
import { MEETING_DETAIL_TEXTS as T } from './texts.ts';

/** SPEC §6, §8: no series meeting for the user any more. Goes to the start page and logs out. */
export function AccessDeniedModal() {
  const api = useApi();
  const [, navigate] = useLocation();
  const leave = () => {
    navigate('/', { replace: true });
    api.logout('access_lost').catch((error: unknown) => console.error('logout', error));
  };
  return (
    <Modal open onClose={leave} title={T.accessDeniedTitle} titleSize="small" staticBackdrop hideClose>
      <p>{T.accessDeniedText}</p>
      <div className={actions}>
        <button type="button" className={primaryButton} onClick={leave}>
          {T.toStartPage}
        </button>
      </div>
    </Modal>
  );
}
