import { Component, type ReactNode } from 'react';
import { reportUiError } from '../errors/ui-error-reporting.ts';
import { primaryButton } from '../styles/controls.ts';
import { SHELL_TEXTS } from './texts.ts';

interface State {
  failed: boolean;
}

/**
 * A page that could not load (its chunk did not arrive, e.g. offline before it was ever fetched)
 * says so in Swedish and offers to try again, instead of leaving a blank screen.
 */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('Page failed to load', error);
    reportUiError(error, 'Failed render');
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" style={{ padding: '2rem 1rem' }}>
        <p>{SHELL_TEXTS.pageFailed}</p>
        <button type="button" className={primaryButton} onClick={() => window.location.reload()}>
          {SHELL_TEXTS.tryAgain}
        </button>
      </div>
    );
  }
}
