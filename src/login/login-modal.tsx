import { Modal } from '../dialogs/modal.tsx';
import { LoginForm } from './login-form.tsx';
import { LOGIN_TEXTS } from './texts.ts';

/**
 * The login form in a modal: from the header's login button and the guard's login prompt. Without
 * `onSuccess` a successful login closes it; with one, the caller decides (e.g. navigates away).
 */
export function LoginModal(props: { open: boolean; onClose: () => void; onSuccess?: () => void }) {
  return (
    <Modal open={props.open} onClose={props.onClose} title={LOGIN_TEXTS.title} focusFirstField>
      <LoginForm onSuccess={props.onSuccess ?? props.onClose} />
    </Modal>
  );
}
