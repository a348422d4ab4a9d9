// SPEC §2 Install modal: offers installation when the browser does, on mobile and Android only; on
// iPhone and iPad Safari, which offer none, it shows the steps of Safari's own menu.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSignals } from '@preact/signals-react/runtime';
import { answerInstallPrompt, installPrompt, watchInstallPrompt } from './install-prompt.ts';
import { closeInstallSteps, installSteps, offerInstallSteps } from './install-steps.ts';
import { INSTALL_TEXTS } from './texts.ts';
import { actions, backdrop, dialog } from './install-modal.styles.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';

export function InstallModal() {
  useSignals();
  useEffect(() => {
    watchInstallPrompt();
    offerInstallSteps();
  }, []);
  if (installPrompt.value) return <InstallOffer />;
  if (installSteps.value) return <InstallSteps />;
  return null;
}

function InstallOffer() {
  const cancel = () => void answerInstallPrompt(false);
  return (
    <InstallDialog
      onEscape={cancel}
      buttons={
        <>
          <button type="button" className={secondaryButton} onClick={cancel}>
            {INSTALL_TEXTS.cancel}
          </button>
          <button type="button" className={primaryButton} onClick={() => void answerInstallPrompt(true)}>
            {INSTALL_TEXTS.install}
          </button>
        </>
      }
    />
  );
}

function InstallSteps() {
  const close = () => closeInstallSteps();
  return (
    <InstallDialog
      onEscape={close}
      buttons={
        <button type="button" className={primaryButton} onClick={close}>
          {INSTALL_TEXTS.close}
        </button>
      }
    >
      <p>{INSTALL_TEXTS.iosIntro}</p>
      <ol>
        {INSTALL_TEXTS.iosSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </InstallDialog>
  );
}

/** The modal's frame: title, SPEC's text, what `children` add, and `buttons`, the first focused. */
function InstallDialog(props: { children?: ReactNode; buttons: ReactNode; onEscape: () => void }) {
  const titleId = useId();
  const textId = useId();
  const panel = useRef<HTMLDivElement>(null);

  // Focus moves into the dialog and back to where it was when the dialog goes.
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.querySelector<HTMLElement>('button')?.focus();
    return () => previous?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      props.onEscape();
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
        {props.children}
        <div className={actions}>{props.buttons}</div>
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
