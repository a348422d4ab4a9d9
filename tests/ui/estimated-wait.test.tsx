import './page-dom.ts';
import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { EstimatedWait } from '../../contract/conversations.ts';
import { hideChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { useCounsellorTestEnv } from '../worker/child-helpers.ts';
import type { UiConnection } from './worker-connection.tsx';
import { childInTheQueue } from './child-in-the-queue.tsx';

/**
 * The estimated wait under the queue place of the child's chat window (docs/decisions.md "An
 * honest estimated wait"), against the real worker core and the real server. The estimate itself is
 * the server's (tests/server/api/estimated-wait.test.ts); here it is set in the stored conversation
 * as the worker would store it from an answer.
 */
const env = useCounsellorTestEnv();
const connections: UiConnection[] = [];
afterEach(async () => {
  cleanup();
  hideChatWindow();
  await Promise.all(connections.splice(0).map((c) => c.dispose()));
});

async function childInQueue() {
  const { window, conversationId, connection } = await childInTheQueue(env, connections);
  const estimate = (wait: EstimatedWait) =>
    connection.fixture.db.conversations.update(conversationId, { estimatedWait: wait });
  return { window, conversationId, estimate };
}

const writeInstead = (window: HTMLElement) =>
  within(window).queryByRole('link', { name: 'Skriv ett meddelande i stället' });

describe('a child waiting in the queue', () => {
  it('is told the estimated wait under the queue place, and nothing when there is none', async () => {
    const { window, estimate } = await childInQueue();
    expect(within(window).queryByText(/^Ungefärlig väntetid/)).toBeNull();
    expect(within(window).queryByText('Det kan dröja mer än 30 minuter')).toBeNull();

    await estimate({ minutes: 1 });
    await within(window).findByText('Ungefärlig väntetid: 1 minut');
    await estimate({ minutes: 14 });
    await within(window).findByText('Ungefärlig väntetid: 14 minuter');
    expect(writeInstead(window)).toBeNull();

    await estimate({ minutes: 15 });
    await within(window).findByText('Ungefärlig väntetid: 15 minuter');
    expect(writeInstead(window)).not.toBeNull();

    await estimate({ moreThan: 30 });
    await within(window).findByText('Det kan dröja mer än 30 minuter');
    expect(within(window).queryByText(/^Ungefärlig väntetid/)).toBeNull();
    expect(writeInstead(window)).not.toBeNull();

    await estimate(null);
    await waitFor(() => expect(within(window).queryByText('Det kan dröja mer än 30 minuter')).toBeNull());
    expect(writeInstead(window)).toBeNull();
  });

  it('on a long wait opens a new mail with "Skriv ett meddelande i stället", keeping the place in the queue', async () => {
    const user = userEvent.setup();
    const { window, estimate, conversationId } = await childInQueue();
    await estimate({ moreThan: 30 });
    const link = await within(window).findByRole('link', { name: 'Skriv ett meddelande i stället' });
    expect(link.getAttribute('href')).toBe('/mina-sidor/nytt-inlagg');

    await user.click(link);
    expect(globalThis.location.pathname).toBe('/mina-sidor/nytt-inlagg');
    // The window is minimised, not closed: the chat waits on in its bar.
    expect(screen.queryByRole('dialog', { name: 'Chatt' })).toBeNull();
    expect(screen.getByRole('button', { name: /^Köplats: \d+$/ })).toBeTruthy();
    const row = await env.server.ctx.db
      .selectFrom('conversations')
      .select('state')
      .where('id', '=', conversationId)
      .executeTakeFirstOrThrow();
    expect(row.state).toBe('New');
  });
});
