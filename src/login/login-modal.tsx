import { lazy, Suspense, useEffect, useRef } from 'react';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { FIRST_FIELD, Modal } from '../dialogs/modal.tsx';
import { whenIdle } from '../ui-kit/when-idle.ts';
import { SHELL_TEXTS } from '../ui-kit/texts.ts';
import { LOGIN_TEXTS } from './texts.ts';

// The form (with react-hook-form) is no part of the start page's code: it is fetched once
// a page with a login button is idle, and is in by the time a child taps it (or on the tap itself).
const loadLoginForm = () => import('./login-form.tsx');
const LoginForm = lazy(async () => ({ default: (await loadLoginForm()).LoginForm }));

/** A form that arrives after the modal opened gets the focus its first field would have had. */
function FocusFirstField() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const dialog = marker.current?.closest('dialog');
    if (dialog && !dialog.querySelector(FIRST_FIELD)?.contains(document.activeElement)) {
      dialog.querySelector<HTMLElement>(FIRST_FIELD)?.focus();
    }
  }, []);
  return <span ref={marker} hidden />;
}

/**
 * The login form in a modal: from the header's login button and the guard's login prompt. Without
 * `onSuccess` a successful login closes it; with one, the caller decides (e.g. navigates away).
 */
export function LoginModal(props: { open: boolean; onClose: () => void; onSuccess?: () => void }) {
  useEffect(() => whenIdle(() => void loadLoginForm().catch(() => undefined)), []);
  return (
    <Modal open={props.open} onClose={props.onClose} title={LOGIN_TEXTS.title} focusFirstField>
      <Suspense fallback={<Spinner label={SHELL_TEXTS.loading} />}>
        <LoginForm onSuccess={props.onSuccess ?? props.onClose} />
        <FocusFirstField />
      </Suspense>
    </Modal>
  );
}
