import type { Call } from './route-walk.ts';
import type { ActorName, Fixture, ServerName } from './walk-fixtures.ts';

/**
 * What a caller other than the owner must get: `denied` is 403 or 404; `own` is 2xx about the
 * caller's own data; a status for anything else; `skip` with the reason when there is nothing to try.
 * Whatever it is, none of the owner's secrets may appear in the answer.
 */
export type Expectation = 'denied' | 'own' | { status: number } | { skip: string };

/** A route that needs a token: one entry per registered route. */
export interface ProtectedEntry {
  /** `METHOD /template` exactly as registered, e.g. `GET /portal/staff/meetings/:id/messages`. */
  route: string;
  /** What the entry aims at, when one route is walked at several entities (answers that differ by state). */
  aim?: string;
  server: ServerName;
  /** The request `actor` makes; the owner's may prepare an entity of its own first. */
  call(fx: Fixture, actor: ActorName | 'none'): Call | Promise<Call>;
  /** The owner's answer proves the route works, so the refusals of others mean something. */
  owner: { as?: ActorName; status: number; sees?: (fx: Fixture) => string };
  /** Callers other than the owner. Staff routes leave this empty: their area covers them. */
  others: Partial<Record<ActorName, Expectation>>;
}

/**
 * A staff route walked as one staff actor on one server; the route's staff area covers everyone else
 * (walk-staff-routes.ts), so `others` stays empty.
 */
export const staffEntry =
  (server: ServerName, as: ActorName) =>
  (
    route: string,
    call: ProtectedEntry['call'],
    status = 200,
    sees?: ProtectedEntry['owner']['sees'],
  ): ProtectedEntry => ({ route, server, call, owner: { as, status, sees }, others: {} });

/** A route anyone may call, with the reason. */
export interface PublicEntry {
  route: string;
  server: ServerName;
  public: string;
  call(fx: Fixture): Call;
  status: number;
  /** Registered only when a built client is served (never in these tests). */
  onlyWithClient?: true;
}

/**
 * Every route under /portal/staff belongs to one area: the role that may use it, the world whose
 * entities fill its parameters. Each is walked generically: 401 without a token, 403 for a child, a
 * participant and the other staff role - so a new staff route is covered the moment it exists.
 */
export interface StaffArea {
  prefix: string;
  role: 'counsellor' | 'leader' | 'admin';
  server: ServerName;
  params(fx: Fixture): Record<string, string | number>;
  /**
   * Why any member of the role may act on any entity here. Without it, a counsellor acts only on
   * what they accepted, and a colleague is walked at the owner's entities and refused.
   */
  sharedByRole?: string;
}
