import { randomUUID } from 'node:crypto';
import { act, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { showChatWindow } from '../../src/one-to-one-chat/chat-store.ts';
import { ChildChatHost } from '../../src/one-to-one-chat/child-chat-host.tsx';
import { api } from '../../harness/test-server.ts';
import type { CounsellorTestEnv } from '../worker/child-helpers.ts';
import { connectUi, renderWithData, type UiConnection } from './worker-connection.tsx';

const PASSWORD = 'blå-ballong-73';
const DEVICE = { userAgent: 'vitest', platform: 'Linux', installed: false };

/**
 * A fresh child who has started a chat and sees its window in the queue, against the real worker
 * core and server of `env`; the connection joins `connections` for the file's cleanup.
 */
export async function childInTheQueue(env: CounsellorTestEnv, connections: UiConnection[]) {
  const username = `barn-${randomUUID().slice(0, 8)}`;
  const res = await api(env.server.url, '/portal/api/accounts/registercontact', {
    body: { username, password: PASSWORD, properties: { birthYear: '2012', gender: 'male' } },
  });
  expect(res.status).toBe(201);
  const connection = await connectUi(env.server, username, PASSWORD);
  connections.push(connection);
  const started = await connection.access.api.startChat(null, DEVICE);
  if (!started.ok) throw new Error(`startChat: ${started.code}`);
  renderWithData(env.server, connection, <ChildChatHost />);
  act(() => showChatWindow());
  const window = await screen.findByRole('dialog', { name: 'Chatt' });
  await within(window).findByText('Du väntar på din tur');
  return { window, conversationId: started.value, connection };
}
