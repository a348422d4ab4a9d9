import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, toasts } from './toast-store.ts';
import { DIALOG_TEXTS } from './texts.ts';
import { CloseIcon } from '../shell/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import * as s from './toasts.styles.ts';

/** The toast stack; always in the page so screen readers hear new toasts in its live region. */
export function Toasts() {
  useSignals();
  return (
    <div className={s.stack} role="status" aria-live="polite">
      {toasts.value.map((toast) => (
        <div key={toast.id} className={`${s.toast} ${s.kinds[toast.kind]}`}>
          <div className={s.body}>
            {toast.title && <strong>{toast.title}</strong>}
            <span>{toast.text}</span>
          </div>
          <button
            type="button"
            className={iconButton}
            aria-label={DIALOG_TEXTS.close}
            onClick={() => dismissToast(toast.id)}
          >
            <CloseIcon />
          </button>
        </div>
      ))}
    </div>
  );
}
