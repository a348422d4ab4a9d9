import { useEffect, useRef } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { dismissToast, toasts } from './toast-store.ts';
import { DIALOG_TEXTS } from './texts.ts';
import { CloseIcon } from '../ui-kit/icons.tsx';
import { iconButton } from '../styles/controls.ts';
import * as s from './toasts.styles.ts';

/**
 * The toast stack; always shown so screen readers hear new toasts in its live region. It is a
 * manual popover in the top layer: a modal dialog (the chat window) would otherwise cover it, and a
 * new toast re-opens it so it sits above a dialog opened after it.
 */
export function Toasts() {
  useSignals();
  const stack = useRef<HTMLDivElement>(null);
  const count = toasts.value.length;

  useEffect(() => {
    const el = stack.current;
    if (!el || typeof el.showPopover !== 'function') return;
    if (el.matches(':popover-open')) {
      if (count === 0 || !document.querySelector('dialog:modal')) return;
      el.hidePopover();
    }
    el.showPopover();
  }, [count]);

  return (
    <div ref={stack} className={s.stack} role="status" aria-live="polite" popover="manual">
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
