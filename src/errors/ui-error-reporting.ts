import type { ClientErrorReport } from '../../worker/client/session.ts';

type Report = (report: ClientErrorReport) => void;

let reporter: Report | null = null;

/** How the page's console names an error React recovered from, above all a hydration mismatch. */
export const RECOVERABLE_ERROR = 'Recoverable React error';

/** What a failed render or an uncaught error says in the client log (SPEC §8), without query or hash. */
export function uiErrorReport(error: unknown, where: string): ClientErrorReport {
  const message =
    error instanceof Error ? `${where}: ${error.name}: ${error.message}` : `${where}: ${String(error)}`;
  return {
    message,
    stack: error instanceof Error ? (error.stack ?? null) : null,
    url: location.href,
  };
}

/** A failed render, from an error boundary: sent on to the client log when one is listening. */
export function reportUiError(error: unknown, where: string): void {
  reporter?.(uiErrorReport(error, where));
}

/**
 * Sends the page's uncaught errors and unhandled rejections, and the error boundaries' failed renders,
 * to the worker's client log (SPEC §8: its skip rules and de-duplication apply there). Returns the
 * function that stops it.
 */
export function reportUiErrorsTo(report: Report, target: Window = window): () => void {
  reporter = report;
  const onError = (event: ErrorEvent) =>
    report(uiErrorReport(event.error ?? event.message, 'Uncaught error'));
  const onRejection = (event: PromiseRejectionEvent) =>
    report(uiErrorReport(event.reason, 'Unhandled rejection'));
  target.addEventListener('error', onError);
  target.addEventListener('unhandledrejection', onRejection);
  return () => {
    if (reporter === report) reporter = null;
    target.removeEventListener('error', onError);
    target.removeEventListener('unhandledrejection', onRejection);
  };
}
