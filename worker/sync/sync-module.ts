import type { Table } from 'dexie';
import type { HUB_EVENTS } from '../../contract/hub.ts';
import type { PEER_EVENTS } from '../../contract/peers.ts';
import type { VariantFeatures } from '../../contract/variant.ts';
import type { SignOutReason } from '../base/session.ts';
import type { OutboxRow } from '../base/db.ts';
import type { HubEventHandler } from '../portal-worker-deps.ts';

/** Ends what a module started for a session (see SyncModule.signedIn). */
export type Stop = () => void;

/** The hub events the app hears (contract/hub.ts, contract/peers.ts), by the name they arrive with. */
export type HubEventName =
  (typeof HUB_EVENTS)[keyof typeof HUB_EVENTS] | (typeof PEER_EVENTS)[keyof typeof PEER_EVENTS];

/** What a module does with each hub event it hears. */
export type HubHandlers = Readonly<Partial<Record<HubEventName, HubEventHandler>>>;

/** A module's `runsIn` where it works in every variant. */
export const everyVariant = (): boolean => true;

/** A command the UI calls through Comlink; it always answers a promise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each command has its own arguments
export type Command = (...args: any[]) => Promise<unknown>;

/** How the outbox sends one kind of row and who is told when it was sent or failed. */
export interface OutboxKind {
  /** Makes the call (default: POST the JSON body), sending `options.headers`. */
  send?(row: OutboxRow, headers: Record<string, string>): Promise<unknown>;
  /** The row was sent or failed (the runner only): show the result, e.g. a chat row's status. */
  settled?(row: OutboxRow): Promise<void>;
}

/**
 * One sync module (meetings, a chat, mail and history, the account): everything the core needs to
 * know of it, declared once. The core loops over its modules for each of these; a new module is one
 * more entry in the core's list.
 */
export interface SyncModule<C extends object = Record<string, Command>> {
  /** The commands the UI may call, declared beside their implementation. */
  readonly commands: C;
  /** The Dexie tables holding the user's data of this module: cleared at sign-out and user change. */
  readonly tables: readonly Table[];
  /**
   * Whether it works in a variant with these features (SPEC §3 feature flags; `everyVariant` when it
   * always does). Where it does not, the core neither starts it, nor routes it hub events, nor asks
   * it to catch up or to sign out; its tables are cleared all the same.
   */
  runsIn(features: VariantFeatures): boolean;
  /**
   * The hub events it turns into work, each with its handler (`{}` when none): the core routes them
   * to it where it runs. tests/worker/module-registry.test.ts names an event the app is sent that
   * no module hears.
   */
  readonly hears: HubHandlers;
  /** The outbox kinds this module writes, by `kind`. */
  readonly outboxKinds?: Readonly<Record<string, OutboxKind>>;
  /**
   * A session began or was found valid, in the worker that runs the hub and the timers. Answers
   * what stops what it started (a timer, a subscription), if anything: the core calls it when the
   * session ends, so no module's work outlives its user.
   */
  signedIn?(): Promise<Stop | void>;
  /** The user signs out on purpose, while the token still works (SPEC §4: end the chat first). */
  signingOut?(reason: SignOutReason): Promise<void>;
  /** The session ended: no timers, opens or subscriptions of the previous user run on. */
  reset?(): void;
  /**
   * The line is back (the browser went online, the hub reconnected): fetch what may have been missed
   * meanwhile for whatever is open (the runner only; one call at a time).
   */
  catchUp?(): Promise<void>;
  /** A real-time error of SPEC §8 (hub reconnecting, subscribe failure). */
  realtimeError?(message: string): Promise<void>;
}

/** The intersection of a union's members: what one object holding all of them offers. */
export type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (whole: infer I) => void
  ? I
  : never;

/**
 * The modules' tables of `part` (their commands, their outbox kinds) as one, typed as all of them
 * together: a name two modules both declare is refused when the list is built, instead of one
 * silently shadowing the other.
 */
export function mergeUnique<T extends object>(
  part: string,
  tables: ReadonlyArray<T | undefined>,
): Intersection<T> {
  const merged: Record<string, unknown> = {};
  for (const table of tables) {
    for (const [name, value] of Object.entries(table ?? {})) {
      if (name in merged) throw new Error(`Two sync modules declare the ${part} '${name}'`);
      merged[name] = value;
    }
  }
  // Every table's names are in `merged`, each once: it holds what each of them holds.
  return merged as Intersection<T>;
}
