import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ASSISTANT_TOKEN_SECONDS } from '../../contract/assistant.ts';
import { AssistantHost } from '../../src/assistant/assistant-host.tsx';
import {
  assistantConversation,
  contextMessage,
  forgetConversation,
} from '../../src/assistant/assistant-conversation.ts';
import { AssistantPanel } from '../../src/assistant/assistant-panel.tsx';
import { assistantState } from '../../src/assistant/assistant-state.ts';
import { readAssistantToken, renewalAt } from '../../src/assistant/assistant-token.ts';
import { RuntimeConfigBoot } from '../../src/config/runtime-config.tsx';
import { DataProvider } from '../../src/data/index.ts';
import { loadRuntimeConfig } from '../../worker/config.ts';
import { api } from '../../harness/test-server.ts';
import { setPageUrl } from './page-dom.ts';
import { useWorkerTestServer } from '../worker/worker-fixture.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/** The assistant's panel against the real worker core and the Assistent server. */
const env = useWorkerTestServer({ variant: 'assistent' });
const connections: UiConnection[] = [];
afterEach(async () => {
  vi.useRealTimers();
  cleanup();
  forgetConversation();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

async function panel() {
  const connection = await connectUi(env.server, 'demo', 'demo-losenord');
  connections.push(connection);
  renderWithData(env.server, connection, <AssistantPanel />);
  await screen.findByRole('button', { name: 'Känslor' });
  return connection;
}

describe('the assistant panel', () => {
  it('answers a topic and a question in its live region, keeping them in the tab only', async () => {
    const connection = await panel();
    const log = screen.getByRole('log', { name: 'Samtal med assistenten' });
    expect(log.getAttribute('aria-live')).toBe('polite');
    await userEvent.click(screen.getByRole('button', { name: 'Känslor' }));
    expect(within(log).getByText(/Alla känslor är okej att ha/)).toBeTruthy();

    await userEvent.type(
      screen.getByRole('textbox', { name: 'Skriv en fråga till assistenten' }),
      'Jag blir mobbad i skolan hemligt-ord-4',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Skicka' }));
    await waitFor(() => expect(within(log).getByText(/Ingen ska behöva bli mobbad/)).toBeTruthy());
    expect(screen.getByRole('link', { name: 'Är det akut? Ring 112.' }).getAttribute('href')).toBe('tel:112');

    expect(sessionStorage.getItem('assistant-conversation')).toContain('hemligt-ord-4');
    for (const table of connection.fixture.db.tables) {
      expect(JSON.stringify(await table.toArray())).not.toContain('hemligt-ord-4');
    }
  });

  it("passes what the child chose and wrote as the chat's first message", () => {
    expect(contextMessage([])).toBeNull();
    expect(
      contextMessage([
        { id: 1, from: 'child', kind: 'topic', text: 'Familj' },
        { id: 2, from: 'assistant', text: 'svar', nextSteps: ['chat'] },
        { id: 3, from: 'child', kind: 'question', text: 'Mamma och pappa bråkar' },
      ]),
    ).toBe('Från assistenten:\nÄmne: Familj\nJag skrev: Mamma och pappa bråkar');
    const long = contextMessage([{ id: 1, from: 'child', kind: 'question', text: 'a'.repeat(2000) }]);
    expect(long).toHaveLength(700);
    expect(assistantConversation.value.entries).toEqual([]);
  });

  it('renews the public token at 0.75 of its 4 hours (SPEC §6, §9)', () => {
    const expiresAt = Date.UTC(2026, 0, 1, 12, 0, 0);
    expect(expiresAt - renewalAt({ access_token: 'x', expires_at: expiresAt })).toBe(60 * 60_000);
  });

  it('replaces the cookie with a new token from the server 3 of its 4 hours in, while in use', async () => {
    // Only the tab's timers and clock are faked; the worker and the server answer over real sockets.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const connection = await connectUi(env.server, 'demo', null, { notStarted: true });
    connections.push(connection);
    // The cookie is Secure: a page on http reads it back only on localhost, as browsers do.
    setPageUrl(`http://localhost:${new URL(env.server.url).port}/`);
    assistantState.value = 'Minimized';
    render(
      <RuntimeConfigBoot load={loadRuntimeConfig(env.server.url)}>
        <DataProvider value={connection.access}>
          <AssistantHost />
        </DataProvider>
      </RuntimeConfigBoot>,
    );

    // In use and no token yet: one is asked for at once. (vi.waitFor moves the fake clock too.)
    const asked = Date.now();
    const first = await vi.waitFor(() => {
      const token = readAssistantToken();
      if (!token) throw new Error('no assistant-token cookie yet');
      return token;
    });
    const lifetimeMs = ASSISTANT_TOKEN_SECONDS * 1000;
    expect(first.expires_at).toBeGreaterThanOrEqual(asked + lifetimeMs);
    expect(first.expires_at).toBeLessThanOrEqual(Date.now() + lifetimeMs);

    // Not before 0.75 of its lifetime...
    expect(first.expires_at - renewalAt(first)).toBe(0.25 * lifetimeMs);
    await vi.advanceTimersByTimeAsync(renewalAt(first) - Date.now() - 1);
    expect(readAssistantToken()).toEqual(first);
    // ...and then a new one, with a lifetime of its own.
    await vi.advanceTimersByTimeAsync(1);
    const renewed = Date.now();
    const second = await vi.waitFor(() => {
      const token = readAssistantToken();
      if (token?.access_token === first.access_token) throw new Error('not renewed yet');
      return token!;
    });
    expect(second.expires_at).toBeGreaterThanOrEqual(renewed + lifetimeMs);

    // Past the first token's end the server refuses it and takes the new one.
    await vi.advanceTimersByTimeAsync(first.expires_at - Date.now() + 1000);
    const content = (token: string) =>
      api(env.server.url, '/portal/api/assistant/content', { token, variant: 'Assistent' });
    expect((await content(first.access_token)).status).toBe(401);
    expect((await content(second.access_token)).status).toBe(200);
    expect(readAssistantToken()).toEqual(second);
  });
});
