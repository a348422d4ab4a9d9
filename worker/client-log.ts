import type { ClientLogRequest } from '../contract/logging.ts';
import type { VariantFeatures } from '../contract/variant.ts';
import type { ClientErrorReport } from './base/session.ts';
import type { Clock } from './clock.ts';

export const DEBOUNCE_MS = 1000;
export const DEDUPLICATE_MS = 5 * 60_000;
/** Statuses the server already knows about (or that carry nothing useful): SPEC §8 skips them. */
const SKIPPED_STATUSES = new Set([401, 403, 405, 500]);
/**
 * Browser notices that reach the page as uncaught errors but say nothing an operator can act on.
 * Chromium's 'ResizeObserver loop completed with undelivered notifications' means only that a
 * resize was delivered a frame later (the chat's growing text box and message list cause it); in a
 * site's log it was 8 of 9 rows.
 */
const HARMLESS_MESSAGES = [/ResizeObserver loop (completed with undelivered notifications|limit exceeded)/];

export interface ClientLogDeps {
  clock: Clock;
  features: Pick<VariantFeatures, 'supportGroup'>;
  isAuthenticated(): boolean;
  /** POST {api}/createclientlogs; must not report its own failure back here. */
  send(entry: ClientLogRequest): Promise<void>;
}

/** Drops query and hash: they may carry codes or tokens. */
export const stripUrl = (url: string) => url.split(/[?#]/, 1)[0] ?? '';

export function shouldSkip(report: ClientErrorReport, authenticated: boolean): boolean {
  if (!authenticated) return true;
  if (report.status !== undefined && SKIPPED_STATUSES.has(report.status)) return true;
  if (HARMLESS_MESSAGES.some((harmless) => harmless.test(report.message))) return true;
  return report.status === 0 && report.message.includes('Unknown Error');
}

/**
 * The client error log of SPEC §8: skip rules, identical errors once per 5 minutes, and a 1 s debounce
 * so a burst (one failure repeated by every retry) becomes one POST per distinct error.
 */
export class ClientLog {
  private readonly lastSent = new Map<string, number>();
  private readonly pending = new Map<string, ClientLogRequest>();
  private timer: unknown = null;

  constructor(private readonly deps: ClientLogDeps) {}

  report(report: ClientErrorReport): void {
    if (shouldSkip(report, this.deps.isAuthenticated())) return;
    const entry: ClientLogRequest = {
      message: report.message,
      stack: report.stack ?? null,
      url: report.url ? stripUrl(report.url) : null,
      ...(this.deps.features.supportGroup ? { level: 'error' } : {}),
    };
    const key = `${entry.message}\n${entry.stack ?? ''}\n${entry.url ?? ''}`;
    const now = this.deps.clock.now();
    const sentAt = this.lastSent.get(key);
    if (sentAt !== undefined && now - sentAt < DEDUPLICATE_MS) return;
    if (this.pending.has(key)) return;
    this.pending.set(key, entry);
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = this.deps.clock.setTimeout(() => void this.flush(), DEBOUNCE_MS);
  }

  /** Drops what is waiting (the worker is shutting down, or the session ended). */
  stop(): void {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  /** Sends what is waiting now (the debounce timer's job; tests and shutdown may call it too). */
  async flush(): Promise<void> {
    // Called before its time (a sign-out), it is the debounce's last run too.
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    const entries = [...this.pending];
    this.pending.clear();
    const now = this.deps.clock.now();
    for (const [key, entry] of entries) {
      this.lastSent.set(key, now);
      try {
        await this.deps.send(entry);
      } catch (error) {
        // Logging the failure of the log would loop; the console is the last resort.
        console.warn('Client log could not be sent', error);
      }
    }
    for (const [key, at] of this.lastSent) if (now - at >= DEDUPLICATE_MS) this.lastSent.delete(key);
  }
}
