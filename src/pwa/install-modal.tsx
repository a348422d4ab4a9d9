// SPEC §2 Install modal: offers installation when the browser does, on mobile and Android only.
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { answerInstallPrompt, installPrompt, watchInstallPrompt } from './install-prompt.ts';
import { INSTALL_TEXTS } from './texts.ts';
import { actions, backdrop, dialog } from './install-modal.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';

export function InstallModal() {
  useSignals();
  useEffect(() => watchInstallPrompt(), []);
  if (!installPrompt.value) return null;
  return <InstallDialog />;
}

function InstallDialog() {
  const titleId = useId();
  const textId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  // Focus moves into the dialog and back to where it was when the dialog goes.
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelButton.current?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      void answerInstallPrompt(false);
    } else if (event.key === 'Tab') {
      keepFocusInside(event, panel.current);
    }
  };

  return (
    <div className={backdrop}>
      <div
        ref={panel}
        className={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={textId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId}>{INSTALL_TEXTS.title}</h2>
        <p id={textId}>{INSTALL_TEXTS.text}</p>
        <div className={actions}>
          <button
            ref={cancelButton}
            type="button"
            className={secondaryButton}
            onClick={() => void answerInstallPrompt(false)}
          >
            {INSTALL_TEXTS.cancel}
          </button>
          <button type="button" className={primaryButton} onClick={() => void answerInstallPrompt(true)}>
            {INSTALL_TEXTS.install}
          </button>
        </div>
      </div>
    </div>
  );
}

/** Tab and Shift+Tab cycle through the dialog's buttons instead of leaving it (aria-modal). */
function keepFocusInside(event: KeyboardEvent, container: HTMLElement | null) {
  const focusable = container?.querySelectorAll<HTMLElement>('button:not(:disabled)');
  if (!focusable?.length) return;
  const first = focusable[0]!;
  const last = focusable[focusable.length - 1]!;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
