import { COMMAND_RETRY, type Standing } from './api.ts';
import { RefCounts } from '../base/ref-counts.ts';

/** A call to make again on a new worker. */
export interface Registration {
  name: string;
  args: unknown[];
}

const standingOf = (name: string): Standing | null => {
  const retry = COMMAND_RETRY[name as keyof typeof COMMAND_RETRY];
  return typeof retry === 'object' ? retry : null;
};

/** Each closing command with the open it closes, read from COMMAND_RETRY. */
const OPEN_CLOSED_BY = new Map<string, string>(
  Object.keys(COMMAND_RETRY).flatMap((name) => {
    const standing = standingOf(name);
    return standing?.standing === 'open' ? [[standing.closedBy, name] as const] : [];
  }),
);

/** Whom a call is about: the open's first argument, or every argument before a switch's or state's value. */
const keyOf = (open: string, args: unknown[], kind: Standing['standing']) =>
  JSON.stringify([open, ...(kind === 'open' ? args.slice(0, 1) : args.slice(0, -1))]);

/**
 * What one tab has registered with the data worker and not taken back: an open group chat or
 * thread, an entity subscription, a watched meeting, what it told of itself (visible, chat in view).
 * The standing commands of COMMAND_RETRY decide what counts; nothing here names a command. Fed
 * every call the worker answered, it gives the calls that make a new worker hold the same.
 */
export class StandingRegistrations {
  /** How often each registration is held (an open chat shown twice is closed twice). */
  private readonly counts = new RefCounts<string>();
  /** Each held registration's command and latest arguments, by key. */
  private readonly held = new Map<string, Registration>();

  /** Takes note of a call the worker answered. */
  record(name: string, args: unknown[]): void {
    const standing = standingOf(name);
    if (standing?.standing === 'latest') {
      const key = keyOf(name, args, 'latest');
      this.counts.drop(key);
      this.counts.add(key);
      this.held.set(key, { name, args });
    } else if (standing?.standing === 'switch') {
      const key = keyOf(name, args, 'switch');
      if (args.at(-1) === true) this.hold(key, { name, args });
      else this.release(key);
    } else if (standing?.standing === 'open') {
      this.hold(keyOf(name, args, 'open'), { name, args });
    } else {
      const open = OPEN_CLOSED_BY.get(name);
      if (open) this.release(keyOf(open, args, 'open'));
    }
  }

  /** The calls that register again everything held, each as often as it is held. */
  replay(): Registration[] {
    return [...this.held].flatMap(([key, call]) =>
      Array.from({ length: this.counts.count(key) }, () => call),
    );
  }

  private hold(key: string, call: Registration): void {
    this.counts.add(key);
    this.held.set(key, call);
  }

  private release(key: string): void {
    if (this.counts.remove(key)) this.held.delete(key);
  }
}
