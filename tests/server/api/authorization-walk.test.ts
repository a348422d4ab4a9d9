import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { HUB_CLIENT_EVENT, HUB_METHODS } from '../../../contract/hub.ts';
import { claimsOf } from '../../../harness/test-server.ts';
import { API_ERRORS } from '../../../contract/errors.ts';
import {
  fillTemplate,
  leaked,
  routeKey,
  send,
  summary,
  type Answer,
  type Call,
  type RegisteredRoute,
} from './route-walk.ts';
import {
  CONVERSATIONS,
  HUB,
  MEETINGS,
  OWNER,
  SECRET_OF_GONE,
  startAssistent,
  startBarn,
  startGruppstod,
  type ActorName,
  type Fixture,
} from './walk-fixtures.ts';
import { startPeers } from './walk-peers-world.ts';
import { PEERS_MODERATION_ROUTES, PEERS_ROUTES } from './walk-peers-routes.ts';
import type { Expectation, ProtectedEntry } from './walk-entry.ts';
import { ASSISTANT_PUBLIC_ROUTES, ASSISTANT_ROUTES } from './walk-assistant-routes.ts';
import { BARN_ROUTES, GROUP_ROUTES, HUB_ROUTES } from './walk-child-routes.ts';
import { PUBLIC_ROUTES as BASE_PUBLIC_ROUTES } from './walk-public-routes.ts';
import { STAFF_ROUTES, areaOf } from './walk-staff-routes.ts';
import { HUB_METHOD_RULES, HUB_SUBSCRIPTION_TARGETS } from './walk-hub-methods.ts';

/**
 * Walks every route the server registers - collected from Fastify itself, so a new route without an
 * entry fails the walk - with no token, with the tokens of people who must not reach the owner's
 * data, and with the owner's token.
 */
const PROTECTED: ProtectedEntry[] = [
  ...BARN_ROUTES,
  ...HUB_ROUTES,
  ...GROUP_ROUTES,
  ...STAFF_ROUTES,
  ...PEERS_ROUTES,
  ...PEERS_MODERATION_ROUTES,
  ...ASSISTANT_ROUTES,
];
const PUBLIC_ROUTES = [...BASE_PUBLIC_ROUTES, ...ASSISTANT_PUBLIC_ROUTES];
/** The routes only a server with the virtual assistant registers (Assistent, Main). */
const ASSISTANT_ONLY = [...ASSISTANT_PUBLIC_ROUTES, ...ASSISTANT_ROUTES].map((e) => e.route);

let fx: Fixture;
beforeAll(async () => {
  // One after the other: route capture listens to every Fastify instance created meanwhile.
  const barn = await startBarn();
  const gruppstod = await startGruppstod();
  const assistent = await startAssistent();
  fx = { barn, gruppstod, assistent, peers: await startPeers() };
  // Four servers with their data, one after the other: on a busy machine this takes more than a minute.
}, 180_000);
afterAll(async () => {
  await fx?.barn.dispose();
  await fx?.gruppstod.dispose();
  await fx?.assistent.dispose();
  await fx?.peers.dispose();
});

const methodOf = (route: string) => route.split(' ')[0]!;
const isStaffUrl = (url: string) => url === '/portal/staff' || url.startsWith('/portal/staff/');
const writes = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
/** An entry's name in a failure list: its route, and what it aims at when the route is walked twice. */
const labelOf = (e: ProtectedEntry) => (e.aim ? `${e.route} (${e.aim})` : e.route);

function registered(): Map<string, RegisteredRoute> {
  return new Map(
    [...fx.barn.routes, ...fx.gruppstod.routes, ...fx.assistent.routes, ...fx.peers.routes].map((r) => [
      routeKey(r),
      r,
    ]),
  );
}

/** A request to a route that needs no particular body: the refusal must come before the body matters. */
const generic = (r: RegisteredRoute, params: Record<string, string | number>): Call => ({
  path: fillTemplate(r.url, params),
  ...(writes(r.method) ? { json: {} } : {}),
});

function meets(expectation: Exclude<Expectation, { skip: string }>, status: number) {
  if (expectation === 'denied') return status === 403 || status === 404;
  if (expectation === 'own') return status >= 200 && status < 300;
  return status === expectation.status;
}

/** Everything the owners and their staff see, in the worlds where other callers could change it. */
const snapshot = async () => [
  await fx.barn.snapshot(),
  await fx.gruppstod.snapshot(),
  await fx.peers.snapshot(),
];

const UNAUTHORIZED = { error: 'unauthorized', message: API_ERRORS.unauthorized.message };
function isBareRefusal(a: Answer) {
  if (a.body === '') return true;
  try {
    return JSON.stringify(JSON.parse(a.body)) === JSON.stringify(UNAUTHORIZED);
  } catch {
    return false;
  }
}

describe('authorization walk over every route', () => {
  it('has an entry for every registered route and none for a route that is gone', () => {
    const routes = registered();
    const entries = [...PUBLIC_ROUTES.map((e) => e.route), ...PROTECTED.map(labelOf)];
    const known = new Set([...PUBLIC_ROUTES, ...PROTECTED].map((e) => e.route));
    const missing = [...routes.values()]
      .filter((r) => (isStaffUrl(r.url) ? !areaOf(r.url) : !known.has(routeKey(r))))
      .map(routeKey);
    const live = [...PUBLIC_ROUTES.filter((e) => !e.onlyWithClient), ...PROTECTED].map((e) => e.route);
    const stale = live.filter((key) => !routes.has(key));
    const twice = entries.filter((key, i) => entries.indexOf(key) !== i);
    expect({ missing, stale, twice }).toEqual({ missing: [], stale: [], twice: [] });
    // The variants run the same server: a route only one of them has would escape part of the walk.
    expect(fx.gruppstod.routes.map(routeKey).sort()).toEqual(fx.barn.routes.map(routeKey).sort());
    expect(fx.peers.routes.map(routeKey).sort()).toEqual(fx.barn.routes.map(routeKey).sort());
    // Assistent is Barn and the assistant's routes, which Barn does not have.
    const barnKeys = fx.barn.routes.map(routeKey);
    expect(barnKeys.filter((key) => ASSISTANT_ONLY.includes(key))).toEqual([]);
    expect(fx.assistent.routes.map(routeKey).sort()).toEqual([...barnKeys, ...ASSISTANT_ONLY].sort());
  });

  it('answers 401 with no data to every protected route without a valid token; public routes answer', async () => {
    const failures: string[] = [];
    for (const r of registered().values()) {
      const key = routeKey(r);
      const area = isStaffUrl(r.url) ? areaOf(r.url) : undefined;
      const entry = PROTECTED.find((e) => e.route === key);
      if (!area && !entry) continue;
      const world = fx[area ? area.server : entry!.server];
      const tokens = {
        none: undefined,
        garbage: 'not-a-token',
        revoked: world.revoked,
        deleted: world.deleted,
        expired: world.expired,
      };
      for (const [kind, token] of Object.entries(tokens)) {
        const call = area ? generic(r, area.params(fx)) : await entry!.call(fx, 'none');
        const answer = await send(world.server.url, r.method, call, token, world.variant);
        const leaks = leaked(answer.body, world.secrets);
        if (answer.status !== 401 || !isBareRefusal(answer) || leaks.length > 0)
          failures.push(`${kind} token ${key}: ${summary(answer)}`);
      }
    }
    for (const entry of PUBLIC_ROUTES.filter((e) => registered().has(e.route))) {
      const world = fx[entry.server];
      const answer = await send(
        world.server.url,
        methodOf(entry.route),
        entry.call(fx),
        undefined,
        world.variant,
      );
      if (answer.status !== entry.status) failures.push(`public ${entry.route}: ${summary(answer)}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses an unknown X-App-Variant on every /portal route and takes a missing one as the server’s own', async () => {
    const failures: string[] = [];
    // Assistent's and Peers' other routes are Barn's, refused there already.
    const own = (world: Fixture[keyof Fixture]) =>
      world === fx.assistent
        ? world.routes.filter((r) => ASSISTANT_ONLY.includes(routeKey(r)))
        : world === fx.peers
          ? world.routes.filter((r) => r.url.includes('/peers'))
          : world.routes;
    for (const world of [fx.barn, fx.gruppstod, fx.assistent, fx.peers]) {
      for (const r of own(world).filter((x) => x.url.startsWith('/portal/'))) {
        // Reads carry the owner's token (still no data); writes none, so a regression cannot write.
        const token = writes(r.method) || r.method === 'DELETE' ? undefined : world.tokens.owner;
        const answer = await send(world.server.url, r.method, generic(r, {}), token, 'Okand');
        const body = answer.body ? (JSON.parse(answer.body) as { error?: string }) : {};
        if (
          answer.status !== 400 ||
          body.error !== 'unknown_variant' ||
          leaked(answer.body, world.secrets).length
        )
          failures.push(`${world.name} ${routeKey(r)}: ${summary(answer)}`);
      }
    }
    expect(failures).toEqual([]);
    // docs/server.md: "a missing one is taken as the server's own variant", so tools such as curl work.
    const barn = await send(
      fx.barn.server.url,
      'GET',
      { path: '/portal/accounts' },
      fx.barn.tokens.owner,
      null,
    );
    expect(barn.status).toBe(200);
    expect(barn.body).toContain(OWNER.username);
    const group = fx.gruppstod;
    const meetings = await send(
      group.server.url,
      'GET',
      { path: `${MEETINGS}/meetings` },
      group.tokens.owner,
      null,
    );
    expect(meetings.status).toBe(200);
    expect(meetings.body).toContain(group.secrets[0]);
  });

  it('shows other callers none of the owner’s data and lets none of them change it', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const check = async (
      label: string,
      entry: { server: keyof Fixture; method: string; call: () => Call | Promise<Call> },
      actor: ActorName,
      expectation: Exclude<Expectation, { skip: string }>,
    ) => {
      const world = fx[entry.server];
      const token = world.tokens[actor];
      if (!token) return failures.push(`${label}: no ${actor} in ${world.name}`);
      const answer = await send(world.server.url, entry.method, await entry.call(), token, world.variant);
      const leaks = leaked(answer.body, actor === 'peer' ? world.peerSecrets : world.secrets);
      if (!meets(expectation, answer.status) || leaks.length > 0) {
        const leak = leaks.length ? ` LEAKS ${leaks.join(', ')}` : '';
        failures.push(
          `${actor} ${label}: wanted ${JSON.stringify(expectation)}, got ${summary(answer)}${leak}`,
        );
      }
    };

    for (const e of PROTECTED) {
      for (const [actor, expectation] of Object.entries(e.others) as Array<[ActorName, Expectation]>) {
        if (typeof expectation === 'object' && 'skip' in expectation) continue;
        const entry = { server: e.server, method: methodOf(e.route), call: () => e.call(fx, actor) };
        await check(labelOf(e), entry, actor, expectation);
      }
    }
    for (const r of [...registered().values()].filter((x) => isStaffUrl(x.url))) {
      const area = areaOf(r.url);
      if (!area) continue;
      const wrongRoles: ActorName[] = (['counsellor', 'leader', 'admin'] as const).filter(
        (role) => role !== area.role,
      );
      const entry = { server: area.server, method: r.method, call: () => generic(r, area.params(fx)) };
      // The owner too: no child decides on their own post or reads the staff's view of their chat.
      for (const actor of ['owner', 'other', 'participant', ...wrongRoles] as const)
        await check(routeKey(r), entry, actor, { status: 403 });
      // A counsellor acts only on what they accepted: a colleague's chat is not theirs to read or end.
      // The body is a valid one for every such route, so only ownership can refuse it.
      if (area.role === 'counsellor' && r.url.includes(':id') && !area.sharedByRole) {
        const aimed = () => {
          const call = generic(r, area.params(fx));
          return writes(r.method) ? { ...call, json: { content: 'Jag är kuratorn nu' } } : call;
        };
        await check(routeKey(r), { ...entry, call: aimed }, 'colleague', 'denied');
      }
    }

    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('opens nothing but the assistant with the public assistant token (SPEC §6)', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const refuse = async (label: string, world: Fixture[keyof Fixture], method: string, call: Call) => {
      const answer = await send(world.server.url, method, call, world.tokens.assistant, world.variant);
      const leaks = leaked(answer.body, world.secrets);
      if ((answer.status !== 401 && answer.status !== 403) || leaks.length > 0)
        failures.push(`${world.name} ${label}: ${summary(answer)}${leaks.length ? ' LEAKS' : ''}`);
    };
    // Each world's token is signed with that world's own keys: only its kind can make it no key.
    // Child-app, hub and Peers routes, aimed at the owner's entities as another caller's are...
    for (const e of PROTECTED.filter((x) => !isStaffUrl(x.route.split(' ')[1]!))) {
      if (ASSISTANT_ONLY.includes(e.route)) continue;
      await refuse(labelOf(e), fx[e.server], methodOf(e.route), await e.call(fx, 'assistant'));
    }
    // ...every staff route, aimed as its area aims a child's token...
    for (const r of [...registered().values()].filter((x) => isStaffUrl(x.url))) {
      const area = areaOf(r.url)!;
      await refuse(routeKey(r), fx[area.server], r.method, generic(r, area.params(fx)));
    }
    // ...and, on the server that hands the token out, every route that is neither public nor the
    // assistant's, with the very token it handed out.
    const open = new Set([...PUBLIC_ROUTES.map((e) => e.route), ...ASSISTANT_ONLY]);
    for (const r of fx.assistent.routes.filter((x) => !open.has(routeKey(x))))
      await refuse(routeKey(r), fx.assistent, r.method, generic(r, {}));
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('serves every protected route to its owner, so the refusals above mean something', async () => {
    const failures: string[] = [];
    for (const e of PROTECTED) {
      const world = fx[e.server];
      const actor = e.owner.as ?? 'owner';
      const call = await e.call(fx, actor);
      const answer = await send(
        world.server.url,
        methodOf(e.route),
        call,
        world.tokens[actor],
        world.variant,
      );
      const seen = e.owner.sees?.(fx);
      if (answer.status !== e.owner.status || (seen !== undefined && !answer.body.includes(seen)))
        failures.push(
          `${actor} ${labelOf(e)}: wanted ${e.owner.status}${seen ? ` with ${seen}` : ''}, got ${summary(answer)}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it('refuses its own participant every route of a meeting its leader deleted, and shows nothing of it', async () => {
    const failures: string[] = [];
    const world = fx.gruppstod;
    // The gruppstod routes aimed at the deleted meeting instead of the running one.
    const aimed: Fixture = {
      ...fx,
      gruppstod: { ...world, ...world.gone, freshHomework: async () => world.gone.homework },
    };
    for (const e of GROUP_ROUTES) {
      const answer = await send(
        world.server.url,
        methodOf(e.route),
        await e.call(aimed, 'owner'),
        world.tokens.owner,
        world.variant,
      );
      // A list answers with the rest; everything aimed at the meeting is refused.
      const list = e.route.endsWith('/meetings');
      if (
        (list ? answer.status !== 200 : ![403, 404].includes(answer.status)) ||
        answer.body.includes(SECRET_OF_GONE)
      )
        failures.push(`owner ${labelOf(e)} of the deleted meeting: ${summary(answer)}`);
    }
    const conversations = await send(
      world.server.url,
      'GET',
      { path: `${CONVERSATIONS}/conversations` },
      world.tokens.owner,
      world.variant,
    );
    if (conversations.body.includes(`"id":${world.gone.groupConversation},`))
      failures.push(`owner's conversation list holds the deleted meeting's chat: ${summary(conversations)}`);
    expect(failures).toEqual([]);
  });
});

/**
 * The hub's methods, walked as the routes are: with the official SignalR client, as every caller,
 * at the owner's entities. Who follows an entity is proven by what they hear: after the entity's
 * event, each caller gets a marker on their own account, and a caller subscribed to the entity has
 * heard its event first (one process delivers to one connection in order).
 */
describe('authorization walk over every hub method', () => {
  interface Hub {
    connection: HubConnection;
    events: string[];
    heard(name: string): Promise<void>;
  }
  const open: HubConnection[] = [];
  const hubs = new Map<string, Promise<Hub>>();
  afterAll(async () => {
    await Promise.all(open.map((c) => c.stop()));
  });

  function build(url: string, token: string, skipNegotiation = false): HubConnection {
    const connection = new HubConnectionBuilder()
      .withUrl(`${url}${HUB}`, {
        transport: HttpTransportType.WebSockets,
        accessTokenFactory: () => token,
        skipNegotiation,
      })
      .configureLogging(LogLevel.None)
      .build();
    open.push(connection);
    return connection;
  }

  /** One connection per caller and world, kept for the walk. */
  function hubOf(server: keyof Fixture, actor: ActorName): Promise<Hub> {
    const id = `${server}:${actor}`;
    let hub = hubs.get(id);
    if (!hub) {
      hub = (async () => {
        const connection = build(fx[server].server.url, fx[server].tokens[actor]!);
        const events: string[] = [];
        const waiters = new Set<() => void>();
        connection.on(HUB_CLIENT_EVENT, (name: string) => {
          events.push(name);
          for (const waiter of [...waiters]) waiter();
        });
        await connection.start();
        const heard = (name: string) =>
          new Promise<void>((resolve) => {
            const check = () => {
              if (!events.includes(name)) return;
              waiters.delete(check);
              resolve();
            };
            waiters.add(check);
            check();
          });
        return { connection, events, heard };
      })();
      hubs.set(id, hub);
    }
    return hub;
  }

  let round = 0;
  /** Publishes an event to `key`; answers which of `actors` heard it (before their own marker). */
  async function whoHears(server: keyof Fixture, key: string, actors: ActorName[]): Promise<ActorName[]> {
    const world = fx[server];
    const name = `Walk.Entity.${++round}`;
    const marker = `Walk.Marker.${round}`;
    await world.server.ctx.hub.publishToEntity(key, name, {});
    const heard: ActorName[] = [];
    for (const actor of actors) {
      const hub = await hubOf(server, actor);
      const { accountId } = claimsOf(world.tokens[actor]!);
      await world.server.ctx.hub.publishToAccount(accountId, marker, {}, '');
      await hub.heard(marker);
      if (hub.events.includes(name)) heard.push(actor);
    }
    return heard;
  }

  it('has a rule for every hub method of the contract, and the server knows no other', async () => {
    expect(Object.keys(HUB_METHOD_RULES).sort()).toEqual(Object.values(HUB_METHODS).sort());
    const hub = await hubOf('barn', 'owner');
    await expect(hub.connection.invoke('DeleteEverything', 'Conversation:1')).rejects.toThrow(
      "Unknown hub method 'DeleteEverything'",
    );
  });

  it('opens no connection, and so runs no method, without a valid token', async () => {
    const failures: string[] = [];
    for (const world of [fx.barn, fx.gruppstod]) {
      const tokens = {
        none: '',
        garbage: 'not-a-token',
        revoked: world.revoked,
        deleted: world.deleted,
        expired: world.expired,
        assistant: world.tokens.assistant!,
      };
      for (const [kind, token] of Object.entries(tokens)) {
        // Through negotiate, and straight to the WebSocket with the token in the query.
        for (const skip of [false, true]) {
          const connection = build(world.server.url, token, skip);
          const started = await connection.start().then(
            () => 'connected',
            (error: unknown) => String(error),
          );
          if (started === 'connected') failures.push(`${world.name} ${kind} token (skipNegotiation ${skip})`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets SubscribeToEntity follow only what the caller may see; the others hear nothing of it', async () => {
    const failures: string[] = [];
    for (const target of HUB_SUBSCRIPTION_TARGETS) {
      const key = target.key(fx);
      for (const actor of [...target.allowed, ...target.refused]) {
        const hub = await hubOf(target.server, actor);
        const outcome = await hub.connection.invoke(HUB_METHODS.subscribe, key).then(
          () => 'served',
          (error: unknown) => String(error),
        );
        const wanted = target.allowed.includes(actor) ? 'served' : 'Error: Forbidden';
        if (outcome !== wanted) failures.push(`${actor} ${target.aim}: wanted ${wanted}, got ${outcome}`);
      }
      const heard = await whoHears(target.server, key, [...target.allowed, ...target.refused]);
      if (JSON.stringify(heard) !== JSON.stringify(target.allowed))
        failures.push(
          `${target.aim}: heard by ${heard.join(', ') || 'nobody'}, not ${target.allowed.join(', ') || 'nobody'}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it("lets UnsubscribeFromEntity end the caller's own subscription only", async () => {
    const failures: string[] = [];
    const aims = [
      { server: 'barn' as const, key: `Conversation:${fx.barn.ownerChat}` },
      { server: 'gruppstod' as const, key: `Meeting:${fx.gruppstod.meeting}` },
    ];
    for (const { server, key } of aims) {
      const owner = await hubOf(server, 'owner');
      await owner.connection.invoke(HUB_METHODS.subscribe, key);
      const others: ActorName[] =
        server === 'barn'
          ? ['other', 'participant', 'counsellor', 'colleague', 'admin']
          : ['peer', 'other', 'leader'];
      for (const actor of others) {
        const hub = await hubOf(server, actor);
        const outcome = await hub.connection.invoke(HUB_METHODS.unsubscribe, key).then(
          () => 'served',
          (error: unknown) => String(error),
        );
        if (outcome !== 'served') failures.push(`${actor} ${key}: ${outcome}`);
      }
      if ((await whoHears(server, key, ['owner'])).length !== 1)
        failures.push(`${key}: the owner no longer hears it after the others let go`);
      // The owner's own let-go ends the owner's subscription.
      await owner.connection.invoke(HUB_METHODS.unsubscribe, key);
      if ((await whoHears(server, key, ['owner'])).length !== 0)
        failures.push(`${key}: the owner still hears it after letting go`);
    }
    expect(failures).toEqual([]);
  });

  it('answers SendMessage, kept for old clients, and Ping to anyone and changes nothing', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const callers: Array<[keyof Fixture, ActorName]> = [
      ['barn', 'owner'],
      ['barn', 'other'],
      ['barn', 'counsellor'],
      ['gruppstod', 'owner'],
      ['gruppstod', 'other'],
      ['gruppstod', 'leader'],
    ];
    for (const [server, actor] of callers) {
      const hub = await hubOf(server, actor);
      const aim = server === 'barn' ? fx.barn.ownerChat : fx.gruppstod.groupConversation;
      const outcome = await hub.connection.invoke(HUB_METHODS.sendMessage, aim, 'Hej från hubben').then(
        (result: unknown) => `served ${JSON.stringify(result)}`,
        (error: unknown) => String(error),
      );
      if (outcome !== 'served null') failures.push(`${server} ${actor}: ${outcome}`);
      // The liveness check takes no argument, and refuses none: an old client's extra one is ignored.
      for (const args of [[], ['extra']]) {
        const pinged = await hub.connection.invoke(HUB_METHODS.ping, ...args).then(
          (result: unknown) => `served ${JSON.stringify(result)}`,
          (error: unknown) => String(error),
        );
        if (pinged !== 'served null') failures.push(`${server} ${actor} Ping(${args.length}): ${pinged}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
