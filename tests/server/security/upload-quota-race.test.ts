import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../../contract/limits.ts';
import { api, login, type TestServer } from '../../../harness/test-server.ts';
import { startTarget, tally } from '../../../harness/attack.ts';

/**
 * Attack: parallel uploads past the storage quota. The quota was read, then the file written, so
 * uploads sent together each saw the same room (on PostgreSQL, and between awaits on SQLite). The
 * quota is now taken in one conditional update of the owner's running total.
 */
const MEETINGS = '/portal/features/meetings/meetingsapplicationfeature-id';
const MB = 1024 * 1024;
let server: TestServer;
let token: string;
let meetingId: number;
beforeAll(async () => {
  server = await startTarget({ variant: 'gruppstod' });
  token = (await login(server.url, 'DEMOKOD-0003')).access_token;
  const list = await api(server.url, `${MEETINGS}/meetings`, { token, variant: 'Gruppstod' });
  meetingId = (list.body as { value: Array<{ id: number; state: string }> }).value.find(
    (m) => m.state === 'InProgress',
  )!.id;
});
afterAll(async () => server?.dispose());

/** A PDF of `bytes` (content recognised by its magic bytes). */
function upload(bytes: number, i: number) {
  const content = new Uint8Array(bytes).fill(0x20);
  content.set(new TextEncoder().encode('%PDF-1.4\n'));
  const form = new FormData();
  form.set('Subject', 'Uppgift');
  form.set('MessageType', '1');
  form.set('MeetingRuid', String(meetingId));
  form.set('DocumentName', `del-${i}.pdf`);
  form.set('DocumentContent', new Blob([content], { type: 'application/pdf' }), `del-${i}.pdf`);
  return fetch(`${server.url}${MEETINGS}/meetingmessage`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'X-App-Variant': 'Gruppstod' },
    body: form,
  }).then((r) => r.status);
}

const storedBytes = async () => {
  const rows = await server.ctx.db.selectFrom('file_blobs').select('size').execute();
  return rows.reduce((sum, r) => sum + Number(r.size), 0);
};

describe('the upload quota', () => {
  it('holds against uploads sent together', async () => {
    // 48.5 MB of the 50 MB taken, one upload at a time.
    for (let i = 0; i < 4; i++) expect(await upload(10 * MB, i)).toBe(200);
    expect(await upload(8.5 * MB, 4)).toBe(200);
    const statuses = await Promise.all(Array.from({ length: 5 }, (_, i) => upload(1 * MB, 10 + i)));
    expect(tally(statuses)).toEqual({ 200: 1, 413: 4 });
    expect(await storedBytes()).toBeLessThanOrEqual(UPLOAD_LIMITS.quotaBytes);
  });
});
