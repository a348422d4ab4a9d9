import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  assistantConversation,
  contextMessage,
  forgetConversation,
} from '../../src/assistant/assistant-conversation.ts';
import { AssistantPanel } from '../../src/assistant/assistant-panel.tsx';
import { renewalAt } from '../../src/assistant/assistant-token.ts';
import { useWorkerTestServer } from '../worker/worker-fixture.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

/** The assistant's panel against the real worker core and the Assistent server. */
const env = useWorkerTestServer({ variant: 'assistent' });
const connections: UiConnection[] = [];
afterEach(async () => {
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
});
