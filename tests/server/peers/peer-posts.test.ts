import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { HttpTransportType, type HubConnection } from '@microsoft/signalr';
import {
  NEUTRAL_AUTHOR_NAME,
  PEER_EVENTS,
  PEER_POST_SUBJECT_MAX_LENGTH,
  PEER_POST_TEXT_MAX_LENGTH,
  type PeerModerationItem,
  type PeerPostDetail,
  type PeerPostWire,
  type PeerReplyWire,
} from '../../../contract/index.ts';
import { CONTACTS_FEATURE_IDS } from '../../../contract/profile.ts';
import { VARIANT_FEATURES, type VariantFeatures } from '../../../contract/variant.ts';
import { api, login, startTestServer, type TestServer, postWithKey } from '../../../harness/test-server.ts';
import { buildClient, recordEvents, waitFor, type ReceivedEvent } from '../hub/helpers.ts';
import { HUB_PATH } from '../../../contract/hub.ts';

/**
 * Peers over HTTP and the hub, on a real Peers server: a post waits for a counsellor,
 * nobody else sees it meanwhile, approval publishes it live, a report takes it back to moderation,
 * a rejection shows its reason to the author only. Every route refuses the wrong caller.
 */
let server: TestServer;
let barn: TestServer;
const tokens: Record<'a' | 'b' | 'counsellor' | 'leader', string> = {
  a: '',
  b: '',
  counsellor: '',
  leader: '',
};
const hubs: HubConnection[] = [];
const V = 'Peers';
let childCount = 0;

async function newChild(on: TestServer, variant = V): Promise<string> {
  const username = `ung-${++childCount}`;
  const res = await api(on.url, '/portal/api/accounts/registercontact', {
    body: { username, password: 'blå-ballong-73' },
    variant,
  });
  expect(res.status).toBeLessThan(300);
  return (await login(on.url, username, 'blå-ballong-73')).access_token;
}

const call = (path: string, token: string, body?: unknown, variant = V, on = server) =>
  api(on.url, path, { token, body, variant });
const newPost = (token: string, body: unknown = { subject: 'Ensam', text: 'Känner mig ensam i skolan.' }) =>
  call('/portal/api/peers/posts', token, body);
const staff = (path: string, body?: unknown, token = tokens.counsellor) =>
  call(`/portal/staff/peers${path}`, token, body ?? (path.endsWith('/approve') ? {} : undefined));

async function hub(token: string): Promise<ReceivedEvent[]> {
  const connection = buildClient(`${server.url}${HUB_PATH}`, token, HttpTransportType.WebSockets);
  const events = recordEvents(connection);
  await connection.start();
  hubs.push(connection);
  return events;
}

beforeAll(async () => {
  server = await startTestServer({ variant: 'peers' });
  barn = await startTestServer();
  tokens.a = await newChild(server);
  tokens.b = await newChild(server);
  tokens.counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  tokens.leader = (
    await login(server.url, 'gruppledare', 'gruppledare-losenord', 'portal-staff')
  ).access_token;
});
afterAll(async () => {
  await Promise.all(hubs.map((h) => h.stop()));
  await server?.dispose();
  await barn?.dispose();
});

describe('Peers posts: write, moderate, publish, report', () => {
  it('keeps a new post from others until a counsellor approves it, then shows it live on the board', async () => {
    const authorEvents = await hub(tokens.a);
    const readerEvents = await hub(tokens.b);
    const counsellorEvents = await hub(tokens.counsellor);
    // Refused subscriptions throw; the board is every signed-in user's to follow.
    await hubs[1]!.invoke('SubscribeToEntity', 'PeerBoard:1');

    const created = await newPost(tokens.a);
    expect(created.status).toBe(201);
    const post = created.body as unknown as PeerPostWire;
    // No name chosen yet: the neutral one, never the username.
    expect(post).toMatchObject({ state: 'pending', own: true, authorName: NEUTRAL_AUTHOR_NAME });
    await waitFor(() => counsellorEvents.some((e) => e.eventName === PEER_EVENTS.moderationChanged));

    // Pending: the author sees it as theirs, another child neither on the board nor by id.
    const mine = await call('/portal/api/peers/my-posts', tokens.a);
    expect((mine.body!.value as PeerPostWire[]).map((p) => p.id)).toContain(post.id);
    const boardBefore = await call('/portal/api/peers/posts', tokens.b);
    expect((boardBefore.body!.value as PeerPostWire[]).map((p) => p.id)).not.toContain(post.id);
    expect((await call(`/portal/api/peers/posts/${post.id}`, tokens.b)).status).toBe(404);
    expect((await call(`/portal/api/peers/posts/${post.id}`, tokens.a)).status).toBe(200);

    const queue = await staff('/queue');
    const item = (queue.body!.value as PeerModerationItem[]).find(
      (i) => i.kind === 'post' && i.id === post.id,
    );
    expect(item).toMatchObject({ subject: 'Ensam', reported: false });

    expect((await staff(`/posts/${post.id}/approve`)).status).toBe(200);
    // A second decision on the same item finds it decided.
    expect((await staff(`/posts/${post.id}/approve`)).status).toBe(409);
    await waitFor(() =>
      authorEvents.some(
        (e) =>
          e.eventName === PEER_EVENTS.ownItemChanged && (e.data as { postId: number }).postId === post.id,
      ),
    );
    await waitFor(() => readerEvents.some((e) => e.eventName === PEER_EVENTS.boardChanged));
    const board = (await call('/portal/api/peers/posts', tokens.b)).body!.value as PeerPostWire[];
    expect(board[0]).toMatchObject({ id: post.id, state: 'published', own: false, replyCount: 0 });
    // Authors by username only: nothing of the author's properties or account.
    expect(Object.keys(board[0]!).sort()).toEqual(
      [
        'authorName',
        'createdDate',
        'id',
        'own',
        'publishedDate',
        'rejectReason',
        'replyCount',
        'state',
        'subject',
        'text',
      ].sort(),
    );
  });

  it('moderates replies, marks a counsellor’s reply as staff, and counts only published replies', async () => {
    const post = (await newPost(tokens.a, { subject: 'Svar', text: 'Någon som känner igen sig?' }))
      .body as unknown as PeerPostWire;
    // Nobody answers a post before it is published.
    expect((await call(`/portal/api/peers/posts/${post.id}/replies`, tokens.b, { text: 'Ja' })).status).toBe(
      404,
    );
    expect((await call(`/portal/api/peers/posts/${post.id}/replies`, tokens.a, { text: 'Ja' })).status).toBe(
      409,
    );
    await staff(`/posts/${post.id}/approve`);

    const reply = await call(`/portal/api/peers/posts/${post.id}/replies`, tokens.b, { text: 'Jag med.' });
    expect(reply.status).toBe(201);
    const replyId = reply.body!.id as number;
    const staffBoard = (await staff('/posts')).body!.value as PeerPostWire[];
    expect(staffBoard.map((p) => p.id)).toContain(post.id);
    const staffReply = await staff(`/posts/${post.id}/replies`, { text: 'Hör av dig till oss.' });
    expect(staffReply.status).toBe(201);

    const beforeApproval = (await call(`/portal/api/peers/posts/${post.id}`, tokens.a))
      .body as unknown as PeerPostDetail;
    expect(beforeApproval.replies).toEqual([
      expect.objectContaining({
        byStaff: true,
        authorName: null,
        state: 'published',
        text: 'Hör av dig till oss.',
      }),
    ]);
    expect(beforeApproval.post.replyCount).toBe(1);
    const ownView = (await call(`/portal/api/peers/posts/${post.id}`, tokens.b))
      .body as unknown as PeerPostDetail;
    expect(ownView.replies.map((r) => [r.id, r.state])).toContainEqual([replyId, 'pending']);

    expect((await staff(`/replies/${replyId}/approve`)).status).toBe(200);
    const after = (await call(`/portal/api/peers/posts/${post.id}`, tokens.a))
      .body as unknown as PeerPostDetail;
    expect(after.post.replyCount).toBe(2);
    expect(after.replies.map((r) => r.text)).toEqual(['Jag med.', 'Hör av dig till oss.']);
  });

  it('shows a rejection’s reason to the author only', async () => {
    const post = (await newPost(tokens.a, { subject: 'Nej', text: 'Något som inte hör hit.' }))
      .body as unknown as PeerPostWire;
    expect((await staff(`/posts/${post.id}/reject`, { reason: '' })).status).toBe(400);
    expect((await staff(`/posts/${post.id}/reject`, { reason: 'Skriv inga namn på andra.' })).status).toBe(
      200,
    );
    const mine = (await call('/portal/api/peers/my-posts', tokens.a)).body!.value as PeerPostWire[];
    expect(mine.find((p) => p.id === post.id)).toMatchObject({
      state: 'rejected',
      rejectReason: 'Skriv inga namn på andra.',
    });
    expect((await call(`/portal/api/peers/posts/${post.id}`, tokens.b)).status).toBe(404);
  });

  it('takes a reported post off the board until a counsellor approves it again; the author cannot report their own', async () => {
    const post = (await newPost(tokens.a, { subject: 'Anmäl', text: 'Text' }))
      .body as unknown as PeerPostWire;
    // Not published: nothing to report.
    expect((await call('/portal/api/peers/reports', tokens.b, { kind: 'post', id: post.id })).status).toBe(
      404,
    );
    await staff(`/posts/${post.id}/approve`);
    expect((await call('/portal/api/peers/reports', tokens.a, { kind: 'post', id: post.id })).status).toBe(
      403,
    );
    expect((await call('/portal/api/peers/reports', tokens.b, { kind: 'post', id: post.id })).status).toBe(
      200,
    );

    const board = (await call('/portal/api/peers/posts', tokens.b)).body!.value as PeerPostWire[];
    expect(board.map((p) => p.id)).not.toContain(post.id);
    const queue = (await staff('/queue')).body!.value as PeerModerationItem[];
    expect(queue.find((i) => i.kind === 'post' && i.id === post.id)?.reported).toBe(true);
    await staff(`/posts/${post.id}/approve`);
    const again = (await call('/portal/api/peers/posts', tokens.b)).body!.value as PeerPostWire[];
    expect(again.map((p) => p.id)).toContain(post.id);
  });

  it('shows authors by their contact name, never the login name: posts, replies and the queue', async () => {
    const named = await newChild(server);
    const renamed = await call(`/portal/features/contacts/${CONTACTS_FEATURE_IDS.main}/update`, named, {
      name: 'Stjärnan',
    });
    expect(renamed.status).toBeLessThan(300);
    const post = (await newPost(named, { subject: 'Namn', text: 'Vem syns?' }))
      .body as unknown as PeerPostWire;
    expect(post.authorName).toBe('Stjärnan');
    await staff(`/posts/${post.id}/approve`);
    const reply = (await call(`/portal/api/peers/posts/${post.id}/replies`, named, { text: 'Jag igen.' }))
      .body as unknown as PeerReplyWire;
    expect(reply.authorName).toBe('Stjärnan');
    const queue = (await staff('/queue')).body!.value as PeerModerationItem[];
    expect(queue.find((i) => i.kind === 'reply' && i.id === reply.id)?.authorName).toBe('Stjärnan');
    await staff(`/replies/${reply.id}/approve`);
    const board = (await call('/portal/api/peers/posts', tokens.b)).body!.value as PeerPostWire[];
    expect(board.find((p) => p.id === post.id)?.authorName).toBe('Stjärnan');
    const detail = (await call(`/portal/api/peers/posts/${post.id}`, tokens.b))
      .body as unknown as PeerPostDetail;
    expect(detail.replies.map((r) => r.authorName)).toEqual(['Stjärnan']);
  });

  it('takes a reported counsellor reply off the post and into the queue until it is approved again', async () => {
    const post = (await newPost(tokens.a, { subject: 'Kurator svarar', text: 'Hjälp?' }))
      .body as unknown as PeerPostWire;
    await staff(`/posts/${post.id}/approve`);
    const staffReply = (await staff(`/posts/${post.id}/replies`, { text: 'Skriv till oss.' }))
      .body as unknown as PeerReplyWire;
    expect(
      (await call('/portal/api/peers/reports', tokens.b, { kind: 'reply', id: staffReply.id })).status,
    ).toBe(200);
    const hidden = (await call(`/portal/api/peers/posts/${post.id}`, tokens.a))
      .body as unknown as PeerPostDetail;
    expect(hidden.replies.map((r) => r.id)).not.toContain(staffReply.id);
    const queue = (await staff('/queue')).body!.value as PeerModerationItem[];
    expect(queue.find((i) => i.kind === 'reply' && i.id === staffReply.id)?.reported).toBe(true);
    expect((await staff(`/replies/${staffReply.id}/approve`)).status).toBe(200);
    const back = (await call(`/portal/api/peers/posts/${post.id}`, tokens.a))
      .body as unknown as PeerPostDetail;
    expect(back.replies).toContainEqual(expect.objectContaining({ id: staffReply.id, byStaff: true }));
  });

  it('creates one post for one Idempotency-Key, also for two requests at once', async () => {
    const key = randomUUID();
    const body = { subject: 'En gång', text: `Bara en ${key}` };
    const send = () =>
      postWithKey(server.url, '/portal/api/peers/posts', { token: tokens.a, key, body, variant: V });
    const [first, second] = await Promise.all([send(), send()]);
    // The one that came second is told to retry (429, Retry-After) or gets the first answer again.
    expect([first.status, second.status].sort()).toEqual(expect.arrayContaining([201]));
    for (const res of [first, second]) expect([201, 429]).toContain(res.status);
    const replay = await send();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const rows = await server.ctx.db
      .selectFrom('peer_posts')
      .select('id')
      .where('text', '=', body.text)
      .execute();
    expect(rows).toHaveLength(1);
    expect(((await replay.json()) as PeerPostWire).id).toBe(rows[0]!.id);
  });

  it('answers a retry with the post or reply stored before its announcement failed, instead of a second one', async () => {
    const published = (await newPost(tokens.a, { subject: 'Svara', text: 'Svara gärna.' }))
      .body as unknown as PeerPostWire;
    expect((await staff(`/posts/${published.id}/approve`)).status).toBe(200);
    const cases = [
      {
        path: '/portal/api/peers/posts',
        token: tokens.b,
        body: { subject: 'Efteråt', text: 'Ett inlägg en gång' },
      },
      {
        path: `/portal/api/peers/posts/${published.id}/replies`,
        token: tokens.b,
        body: { text: 'Ett svar en gång' },
      },
      {
        path: `/portal/staff/peers/posts/${published.id}/replies`,
        token: tokens.counsellor,
        body: { text: 'Ett kuratorssvar en gång' },
      },
    ];
    for (const { path, token, body } of cases) {
      const key = randomUUID();
      const send = () => postWithKey(server.url, path, { token, key, body, variant: V });
      // The announcement after the insert fails once (the hub's backplane restarting).
      const fail = new Error('backplane down');
      const publish = [
        vi.spyOn(server.ctx.hub, 'publishToAccount').mockRejectedValueOnce(fail),
        vi.spyOn(server.ctx.hub, 'publishToEntity').mockRejectedValueOnce(fail),
      ];
      let first: Response;
      try {
        first = await send();
      } finally {
        for (const spy of publish) spy.mockRestore();
      }
      expect(first.status, path).toBe(500);
      const again = await send();
      expect(again.status, path).toBe(201);
      expect(again.headers.get('idempotent-replayed'), path).toBe('true');
      const table = path.endsWith('/replies') ? 'peer_replies' : 'peer_posts';
      const rows = await server.ctx.db.selectFrom(table).select('id').where('text', '=', body.text).execute();
      expect(
        rows.map((r) => r.id),
        path,
      ).toEqual([((await again.json()) as { id: number }).id]);
    }
  });
});

describe('Peers and account deletion', () => {
  it('erases a deleted account’s posts and replies', async () => {
    const leaving = await newChild(server);
    const post = (await newPost(leaving, { subject: 'Bort', text: 'Tas bort' }))
      .body as unknown as PeerPostWire;
    await staff(`/posts/${post.id}/approve`);
    await call(`/portal/api/peers/posts/${post.id}/replies`, tokens.b, { text: 'Svar som går' });
    expect((await call('/portal/deleteContact', leaving, {})).status).toBe(200);
    const { db } = server.ctx;
    expect(await db.selectFrom('peer_posts').select('id').where('id', '=', post.id).execute()).toEqual([]);
    expect(await db.selectFrom('peer_replies').select('id').where('post_id', '=', post.id).execute()).toEqual(
      [],
    );
  });
});

describe('Peers routes refuse misuse', () => {
  it('refuses staff tokens on the child routes and child tokens on the staff routes', async () => {
    expect((await call('/portal/api/peers/posts', tokens.counsellor)).status).toBe(403);
    expect((await newPost(tokens.counsellor)).status).toBe(403);
    const post = (await newPost(tokens.a)).body as unknown as PeerPostWire;
    expect((await staff('/queue', undefined, tokens.a)).status).toBe(403);
    expect((await staff(`/posts/${post.id}/approve`, undefined, tokens.a)).status).toBe(403);
    // A group leader is staff, but no moderator.
    expect((await staff('/queue', undefined, tokens.leader)).status).toBe(403);
    expect((await staff('/posts', undefined, tokens.a)).status).toBe(403);
    expect((await staff(`/posts/${post.id}/replies`, { text: 'Jag är kurator' }, tokens.a)).status).toBe(403);
    expect((await staff(`/posts/${post.id}/approve`, undefined, tokens.leader)).status).toBe(403);
    expect((await call('/portal/api/peers/posts', '')).status).toBe(401);
    const fresh = await call(`/portal/api/peers/posts/${post.id}`, tokens.a);
    expect(fresh.body!.post).toMatchObject({ state: 'pending' });
  });

  it('answers 404 in every other variant, for children and counsellors alike', async () => {
    const child = await newChild(barn, 'Barn');
    const counsellor = (await login(barn.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
    expect((await call('/portal/api/peers/posts', child, undefined, 'Barn', barn)).status).toBe(404);
    expect(
      (await call('/portal/api/peers/posts', child, { subject: 'a', text: 'b' }, 'Barn', barn)).status,
    ).toBe(404);
    expect((await call('/portal/staff/peers/queue', counsellor, undefined, 'Barn', barn)).status).toBe(404);
    expect(await barn.ctx.db.selectFrom('peer_posts').select('id').execute()).toEqual([]);
  });

  it('opens in any variant that offers the peers feature: the gate asks the features, not the name', async () => {
    const main = VARIANT_FEATURES.Main as VariantFeatures;
    main.peers = true;
    const other = await startTestServer({ variant: 'main' });
    try {
      const child = await newChild(other, 'Main');
      expect((await call('/portal/api/peers/posts', child, undefined, 'Main', other)).status).toBe(200);
    } finally {
      main.peers = false;
      await other.dispose();
    }
  });

  it('refuses blank and oversize texts and unknown fields of the wrong type', async () => {
    const long = (n: number) => 'x'.repeat(n + 1);
    expect((await newPost(tokens.a, { subject: '   ', text: 'Text' })).status).toBe(400);
    expect(
      (await newPost(tokens.a, { subject: long(PEER_POST_SUBJECT_MAX_LENGTH), text: 'Text' })).status,
    ).toBe(400);
    expect((await newPost(tokens.a, { subject: 'Ämne', text: long(PEER_POST_TEXT_MAX_LENGTH) })).status).toBe(
      400,
    );
    expect((await newPost(tokens.a, { subject: 'Ämne' })).status).toBe(400);
    expect((await call('/portal/api/peers/reports', tokens.b, { kind: 'thread', id: 1 })).status).toBe(400);
    expect((await call('/portal/api/peers/posts/abc', tokens.b)).status).toBe(400);
    const huge = await fetch(`${server.url}/portal/api/peers/posts`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${tokens.a}`,
        'Content-Type': 'application/json',
        'X-App-Variant': V,
      },
      body: JSON.stringify({ subject: 'Stor', text: 'x'.repeat(2_000_000) }),
    });
    expect([400, 413]).toContain(huge.status);
  });

  it('lets no child approve, and no counsellor decide a reply through the post path', async () => {
    const post = (await newPost(tokens.b, { subject: 'Vänta', text: 'Väntar' }))
      .body as unknown as PeerPostWire;
    expect((await call(`/portal/staff/peers/posts/${post.id}/approve`, tokens.b, {})).status).toBe(403);
    expect((await staff(`/replies/${post.id + 100000}/approve`)).status).toBe(404);
    expect((await staff(`/threads/${post.id}/approve`)).status).toBe(400);
  });

  it('stops a flood of posts from one account with 429', async () => {
    const limited = await startTestServer({ variant: 'peers', config: { rateLimitFactor: 1 } });
    try {
      const token = await newChild(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        statuses.push(
          (
            await api(limited.url, '/portal/api/peers/posts', {
              token,
              variant: V,
              body: { subject: `Nr ${i}`, text: 'Flod' },
            })
          ).status,
        );
      }
      expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
      expect(statuses.slice(10)).toEqual([429, 429]);
    } finally {
      await limited.dispose();
    }
  });
});
