import { emergency } from './emergency-link.styles.ts';
import { SHELL_TEXTS } from './texts.ts';

/**
 * 'Är det akut? Ring 112.' (ours, SPEC is silent): on every start page and in the chat window while a
 * child waits in the queue, a `tel:` link, so a child in danger is never left only with a queue.
 */
export function EmergencyLink() {
  return (
    <p className={emergency}>
      <a href="tel:112">{SHELL_TEXTS.emergency}</a>
    </p>
  );
}
