import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createWorker, useWorkerTestServer } from './worker-fixture.ts';

const env = useWorkerTestServer({ variant: 'assistent' });

async function started() {
  const fixture = await createWorker(env.server);
  env.fixtures.push(fixture);
  return fixture;
}

describe('the assistant in the worker', () => {
  it('gets a public token, caches the content and answers questions without storing them', async () => {
    const { worker, db } = await started();
    const token = await worker.commands.assistantToken();
    if (!token.ok) throw new Error(token.code);
    expect(token.value.expires_at).toBeGreaterThan(Date.now() + 3000 * 1000);

    expect(await worker.commands.loadAssistantContent(token.value.access_token)).toEqual({
      ok: true,
      value: undefined,
    });
    const row = await db.assistantContent.get('current');
    expect(row?.content.topics.map((t) => t.id)).toContain('kanslor');

    const question = 'jag är ledsen hemligt-ord-9';
    const answer = await worker.commands.askAssistant(token.value.access_token, question);
    expect(answer).toMatchObject({ ok: true, value: { topicId: 'kanslor' } });

    // Nothing of the question in any table of the data database.
    for (const table of db.tables) {
      expect(JSON.stringify(await table.toArray())).not.toContain('hemligt-ord-9');
    }
  });

  it('says forbidden for a token that is not an assistant token, and keeps the cached content', async () => {
    const { worker, db } = await started();
    const token = await worker.commands.assistantToken();
    if (!token.ok) throw new Error(token.code);
    await worker.commands.loadAssistantContent(token.value.access_token);
    expect(await worker.commands.loadAssistantContent('not-a-token')).toEqual({
      ok: false,
      code: 'forbidden',
    });
    expect(await worker.commands.askAssistant('not-a-token', 'ledsen')).toEqual({
      ok: false,
      code: 'forbidden',
    });
    expect(await db.assistantContent.get('current')).toBeDefined();
  });
});
