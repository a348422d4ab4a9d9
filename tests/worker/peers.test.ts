import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { api, login } from '../../harness/test-server.ts';
import { signedInWorker } from './group/group-helpers.ts';
import { useWorkerTestServer } from './worker-fixture.ts';
import { valueOf, waitForQuery } from './helpers.ts';
import { outcomeOf } from '../../worker/base/result.ts';
import type { WorkerBroadcast } from '../../worker/client/api.ts';
import { MAIL_DEVICE } from './child-helpers.ts';

const env = useWorkerTestServer({ variant: 'peers' });
const PASSWORD = 'blå-ballong-73';

async function child(username: string, options: { fetch?: typeof fetch } = {}) {
  const registered = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD },
    variant: 'Peers',
  });
  expect(registered.status).toBe(201);
  const fixture = await signedInWorker(env.server, username, PASSWORD, options);
  env.fixtures.push(fixture);
  return fixture;
}

const counsellor = async () =>
  (await login(env.server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
const serverPosts = (text: string) =>
  env.server.ctx.db.selectFrom('peer_posts').select(['id', 'state']).where('text', '=', text).execute();

describe('Peers in the worker', () => {
  it('keeps a post written offline in the outbox and sends it once when the line is back', async () => {
    let offline = true;
    const line: typeof fetch = async (input, init) => {
      if (offline && String(input).includes('/portal/api/peers/posts'))
        throw new TypeError('Failed to fetch');
      return fetch(input, init);
    };
    const { worker, db } = await child('ung-offline', { fetch: line });
    const text = 'Skrivet på tåget utan nät.';
    const result = valueOf(await worker.commands.writePeerPost('På tåget', text));
    expect(result.status).toBe('queued');
    const clientId = result.status === 'queued' ? result.clientId : '';
    expect(await db.outbox.get(clientId)).toMatchObject({ kind: 'peerPost', status: 'failed' });
    expect(await serverPosts(text)).toEqual([]);

    offline = false;
    await worker.onOnline(true);
    await waitForQuery(
      () => db.outbox.get(clientId),
      (row) => row?.status === 'sent',
    );
    // A second flush (another tab's online event, say) sends nothing more.
    await worker.flushOutbox();
    const rows = await serverPosts(text);
    expect(rows).toHaveLength(1);
    const mine = await waitForQuery(
      () => db.peerPosts.get(rows[0]!.id),
      (row) => row?.state === 'pending',
    );
    expect(mine).toMatchObject({ own: true, subject: 'På tåget' });
  });

  it('moves the author’s post from pending to published live and brings it to another reader’s board', async () => {
    const author = await child('ung-forfattare');
    const reader = await child('ung-lasare');
    const written = valueOf(await author.worker.commands.writePeerPost('Hej', 'Finns det fler som jag?'));
    expect(written.status).toBe('sent');
    const id = written.status === 'sent' ? written.id : -1;
    expect(await author.db.peerPosts.get(id)).toMatchObject({ state: 'pending' });
    expect(outcomeOf(await reader.worker.commands.loadPeerBoard())).toBe('ok');
    expect(await reader.db.peerPosts.get(id)).toBeUndefined();

    const approved = await api(env.server.url, `/portal/staff/peers/posts/${id}/approve`, {
      token: await counsellor(),
      body: {},
      variant: 'Peers',
    });
    expect(approved.status).toBe(200);
    await waitForQuery(
      () => author.db.peerPosts.get(id),
      (row) => row?.state === 'published',
    );
    await waitForQuery(
      () => reader.db.peerPosts.get(id),
      (row) => row?.state === 'published' && row.own === false,
    );

    // The reader replies; the reply waits for moderation, seen by its author only.
    const reply = valueOf(await reader.worker.commands.writePeerReply(id, 'Ja, jag!'));
    expect(reply.status).toBe('sent');
    expect(outcomeOf(await author.worker.commands.loadPeerPost(id))).toBe('ok');
    expect(await author.db.peerReplies.where('postId').equals(id).toArray()).toEqual([]);
    expect((await reader.db.peerReplies.where('postId').equals(id).toArray()).map((r) => r.state)).toEqual([
      'pending',
    ]);
  });

  it('opens an answered mail on the Peers mail route, not the post route, from a system notice', async () => {
    const { worker, broadcasts } = await child('ung-notis');
    await worker.commands.tabVisibility('tab', true);
    const sent = valueOf(await worker.commands.sendMail('Skolan', 'Jag är orolig för provet.', MAIL_DEVICE));
    const id = sent.status === 'sent' ? sent.conversationId : -1;
    const answered = await api(env.server.url, `/portal/staff/conversations/${id}/messages`, {
      token: await counsellor(),
      body: { content: 'Hej! Berätta mer.' },
      variant: 'Peers',
    });
    expect(answered.status).toBe(201);
    type Notice = Extract<WorkerBroadcast, { type: 'system-notice' }>;
    const notice = await vi.waitFor(() => {
      const found = broadcasts.find((b): b is Notice => b.type === 'system-notice');
      if (!found) throw new Error('no notice yet');
      return found;
    });
    expect(notice.notice).toEqual({
      title: 'Du har ett nytt meddelande',
      tag: `conversation-${id}`,
      url: `/mina-sidor/meddelande/${id}`,
    });
  });
});
