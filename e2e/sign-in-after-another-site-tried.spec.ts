import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/test.ts';
import { registerChild } from '../harness/actors/child-account.ts';
import { logInChild } from '../harness/page-models/child-login.ts';

// A page on another site (here: another local port, so another origin) that the child happens to
// open makes the child's own browser post wrong passwords for the child's username to the token
// endpoint, and writes to the API. A urlencoded or text/plain POST needs no CORS preflight, so the
// browser sends each one, from the child's own address. None may count against the child: the child
// then signs in on that same browser as always.

const GUESSES = 40;

/** The other site's page: fires its posts at `target` and says when every one has been answered. */
const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>Tävling</title><h1>Vinn en mobil!</h1>
<script>
  const params = new URLSearchParams(location.search);
  const target = params.get('target');
  const username = params.get('username');
  const form = (password) => new URLSearchParams({
    grant_type: 'password', client_id: 'portal-web', scope: 'openid profile portal offline_access',
    username, password,
  });
  const posts = [];
  for (let i = 0; i < ${GUESSES}; i++) {
    posts.push(fetch(target + '/connect/token', { method: 'POST', mode: 'no-cors', body: form('fel-' + i) }));
  }
  // An account the child never asked for, as JSON in a body a form could send.
  posts.push(fetch(target + '/portal/api/accounts/registercontact', {
    method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
    body: JSON.stringify({ username: username + '-x', password: 'Grön-Tekanna-Dansar-7' }),
  }));
  Promise.allSettled(posts).then(() => { document.title = 'klar'; });
</script>`;

let otherSite: Server;
let otherOrigin: string;

test.beforeAll(async () => {
  otherSite = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(ATTACK_PAGE);
  });
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => otherSite.close(() => resolve()));
});

test('a child signs in after another site made their browser post wrong passwords for them', async ({
  page,
  request,
  baseURL,
}) => {
  const account = await registerChild(request);
  const tokenPosts: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/connect/token')) tokenPosts.push(response.status());
  });

  const query = new URLSearchParams({ target: baseURL!, username: account.username });
  await page.goto(`${otherOrigin}/?${query}`);
  await expect(page).toHaveTitle('klar');
  // Every guess reached the server and was refused as coming from another site.
  expect(tokenPosts).toHaveLength(GUESSES);
  expect(new Set(tokenPosts)).toEqual(new Set([403]));

  // The account the other site tried to create does not exist.
  const probe = await request.post('/connect/token', {
    form: {
      grant_type: 'password',
      client_id: 'portal-web',
      scope: 'openid profile portal offline_access',
      username: `${account.username}-x`,
      password: 'Grön-Tekanna-Dansar-7',
    },
  });
  expect(await probe.json()).toMatchObject({ error_description: 'invalid_username_or_password' });

  await logInChild(page, account);
});
