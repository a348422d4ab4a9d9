import { execFile } from 'node:child_process';
import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import {
  api,
  login,
  refreshRequest,
  startTestServer,
  type TestServer,
} from '../../../harness/test-server.ts';
import { DEFAULT_PUSH_SERVICE_HOSTS, loadConfig } from '../../../server/config.ts';
import { PRODUCTION_ENV } from '../../../harness/server-process.ts';
import { PUSH_BURST_MS, isAllowedEndpoint } from '../../../server/push/push-service.ts';
import { VapidKeys } from '../../../server/push/vapid-keys.ts';
import { runMaintenance } from '../../../server/jobs/maintenance.ts';
import type { Conversation } from '../../../contract/conversations.ts';

/**
 * Web Push end to end: a real server over HTTP with a real SQLite file, and a push service of our
 * own over https (a self-signed certificate the server trusts through PUSH_TEST_CA_FILE). The
 * receiver does what a browser's push service and the browser do together: it checks the VAPID
 * JWT (RFC 8292) and the headers, and decrypts the aes128gcm body (RFC 8291) with the
 * subscription's private key, which only the test holds.
 */
const run = promisify(execFile);
const SECRET = 'a-test-signing-key-secret-of-32-characters';
const SUBJECT = 'mailto:drift@example.org';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A push service on 127.0.0.1 over https: records each push and answers 201, or what a path is told to. */
class Receiver {
  readonly received: Received[] = [];
  readonly statusOf = new Map<string, number>();
  private waiters: Array<{ path: string; resolve: (r: Received) => void }> = [];
  server!: https.Server;
  origin = '';

  async start(cert: string, key: string) {
    this.server = https.createServer({ cert, key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
        this.received.push(r);
        res.writeHead(this.statusOf.get(r.path) ?? 201).end();
        for (const w of this.waiters.filter((w) => w.path === r.path)) w.resolve(r);
        this.waiters = this.waiters.filter((w) => w.path !== r.path);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    this.origin = `https://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  /** The next push to `path`. */
  next(pathName: string): Promise<Received> {
    return new Promise((resolve) => this.waiters.push({ path: pathName, resolve }));
  }

  count(pathName: string) {
    return this.received.filter((r) => r.path === pathName).length;
  }
}

/** A browser's subscription: its endpoint on the receiver and the keys only the browser (the test) holds. */
function newDevice(receiver: Receiver) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const pathName = `/push/${randomUUID()}`;
  return {
    path: pathName,
    ecdh,
    auth,
    body: {
      endpoint: `${receiver.origin}${pathName}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}
type Device = ReturnType<typeof newDevice>;

/** RFC 8291 (with RFC 8188's aes128gcm): the push's plaintext, as the browser decrypts it. */
function decrypt(device: Device, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  expect(idLength).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(recordSize);
  const ecdhSecret = device.ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 0x02, then any zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `vapid t=<JWT>, k=<public key>`, the JWT signed with k for this push service's origin. */
async function verifyVapid(received: Received, origin: string): Promise<string> {
  const header = String(received.headers.authorization ?? '');
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  expect(match, header).not.toBeNull();
  const [, jwt, k] = match!;
  const point = Buffer.from(k!, 'base64url');
  expect(point.length).toBe(65);
  const key = await importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    'ES256',
  );
  expect(decodeProtectedHeader(jwt!).alg).toBe('ES256');
  const { payload } = await jwtVerify(jwt!, key, { algorithms: ['ES256'], audience: origin });
  const now = Math.floor(Date.now() / 1000);
  expect(payload.exp).toBeGreaterThan(now);
  expect(payload.exp! - now).toBeLessThanOrEqual(24 * 3600);
  expect(payload.sub).toBe(SUBJECT);
  return k!;
}

let server: TestServer;
let receiver: Receiver;
let counsellor: string;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'push-test-'));
  const keyFile = path.join(tmp, 'key.pem');
  const certFile = path.join(tmp, 'cert.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
  ]);
  receiver = new Receiver();
  await receiver.start(fs.readFileSync(certFile, 'utf8'), fs.readFileSync(keyFile, 'utf8'));
  server = await startTestServer({
    config: {
      signingKeySecret: SECRET,
      // The receiver listens on a port of the system's choosing: any port of 127.0.0.1.
      pushServiceHosts: [...DEFAULT_PUSH_SERVICE_HOSTS, '127.0.0.1:*'],
      pushSubject: SUBJECT,
      pushTestCaFile: certFile,
    },
  });
  counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
});

afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => receiver?.server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

let children = 0;
async function newChild() {
  const username = `push-barn-${++children}-${randomUUID().slice(0, 6)}`;
  const password = 'blå-ballong-73';
  const res = await api(server.url, '/portal/api/accounts/registercontact', { body: { username, password } });
  expect(res.status).toBe(201);
  const tokens = await login(server.url, username, password);
  return { username, password, tokens, token: tokens.access_token };
}

const subscribe = (token: string, body: unknown) =>
  api(server.url, '/portal/push/subscriptions', { token, body });
const publicKey = async (token: string) =>
  ((await api(server.url, '/portal/push/key', { token })).body as { publicKey: string }).publicKey;

async function subscribedChild() {
  const child = await newChild();
  const device = newDevice(receiver);
  expect((await subscribe(child.token, device.body)).status).toBe(204);
  return { ...child, device };
}

async function openChat(token: string) {
  const res = await api(server.url, '/portal/chat', { token, body: { subject: 'Chatt', text: '' } });
  expect(res.status).toBe(200);
  return (res.body as unknown as Conversation).id;
}

async function openMail(token: string) {
  const res = await api(server.url, '/portal/mail', { token, body: { subject: 'Fråga', text: 'Hej' } });
  expect(res.status).toBe(200);
  return (res.body as unknown as Conversation).id;
}

const accept = (id: number) =>
  api(server.url, `/portal/staff/conversations/${id}/accept`, { token: counsellor, body: {} });
const answer = (id: number, content = 'Hej, tack för att du skrev.') =>
  api(server.url, `/portal/staff/conversations/${id}/messages`, { token: counsellor, body: { content } });

const subscriptionsOf = async (accountId: number) =>
  server.ctx.db
    .selectFrom('push_subscriptions')
    .select(['id', 'login_key'])
    .where('account_id', '=', accountId)
    .execute();
const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; sid: string };
const accountOf = (token: string) => Number(claimsOf(token).sub);

/** The push's decrypted JSON, after checking its VAPID signature and headers. */
async function opened(device: Device, received: Received, ttl: number) {
  expect(received.headers['content-encoding']).toBe('aes128gcm');
  expect(received.headers.ttl).toBe(String(ttl));
  expect(received.headers.urgency).toBe('high');
  const k = await verifyVapid(received, receiver.origin);
  return { k, payload: JSON.parse(decrypt(device, received.body)) as Record<string, unknown> };
}

describe('Web Push', () => {
  it('answers the VAPID public key: an uncompressed P-256 point', async () => {
    const child = await newChild();
    const res = await api(server.url, '/portal/push/key', { token: child.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body!)).toEqual(['publicKey']);
    const point = Buffer.from(String(res.body!.publicKey), 'base64url');
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    const stored = await server.ctx.db
      .selectFrom('vapid_keys')
      .select('public_key')
      .where('retired_date', 'is', null)
      .execute();
    expect(stored.map((r) => r.public_key)).toEqual([res.body!.publicKey]);
  });

  it("pushes 'Det är din tur' when a counsellor takes the child's chat", async () => {
    const child = await subscribedChild();
    const id = await openChat(child.token);
    const push = receiver.next(child.device.path);
    expect((await accept(id)).status).toBe(200);
    const received = await push;
    const { k, payload } = await opened(child.device, received, 15 * 60);
    expect(k).toBe(await publicKey(child.token));
    expect(payload).toStrictEqual({
      title: 'Det är din tur',
      tag: `conversation-${id}`,
      url: '/start#chatt',
    });
    expect(String(received.headers.topic)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("pushes 'Du har ett nytt meddelande' with the thread when a counsellor answers a mail", async () => {
    const child = await subscribedChild();
    const id = await openMail(child.token);
    const push = receiver.next(child.device.path);
    expect((await answer(id)).status).toBe(201);
    const { payload } = await opened(child.device, await push, 24 * 3600);
    expect(payload).toStrictEqual({
      title: 'Du har ett nytt meddelande',
      tag: `conversation-${id}`,
      url: `/mina-sidor/inlagg/${id}`,
    });
  });

  it('sends a Topic that names no conversation: one per conversation and device, every push alike', async () => {
    // Attack: reading the push service's side of a push. What it reads in clear is the headers
    // (the payload is encrypted for the device), and the Topic was the tag: `conversation-42`.
    const child = await subscribedChild();
    const tablet = newDevice(receiver);
    const onTablet = await login(server.url, child.username, child.password);
    expect((await subscribe(onTablet.access_token, tablet.body)).status).toBe(204);
    const first = await openMail(child.token);
    const other = await openMail(child.token);
    /** The pushes one answer sends, to the phone and the tablet. */
    const pushesOf = async (id: number, content: string) => {
      const pushes = [receiver.next(child.device.path), receiver.next(tablet.path)];
      expect((await answer(id, content)).status).toBe(201);
      return Promise.all(pushes);
    };
    const [phone, tabletPush] = await pushesOf(first, 'Ett');
    // A minute later (PUSH_BURST_MS: the burst record of the conversation is that old) it is pushed again.
    const aged = await server.ctx.db
      .updateTable('push_bursts')
      .set((eb) => ({ sent_at: eb('sent_at', '-', PUSH_BURST_MS) }))
      .where('key', '=', `thread:conversation-${first}`)
      .executeTakeFirst();
    expect(Number(aged.numUpdatedRows)).toBe(1);
    const [phoneAgain] = await pushesOf(first, 'Två');
    const [phoneOther] = await pushesOf(other, 'Tre');

    const all = [phone!, tabletPush!, phoneAgain!, phoneOther!];
    for (const received of all) {
      const topic = String(received.headers.topic);
      expect(topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const vapid = /t=([^,\s]+)/.exec(String(received.headers.authorization))![1]!;
      const claims = Buffer.from(vapid.split('.')[1]!, 'base64url').toString('utf8');
      const seen = [
        ...Object.values(received.headers).flat().map(String),
        claims,
        Buffer.from(topic, 'base64url').toString('latin1'),
      ];
      for (const id of [first, other]) {
        expect(seen.filter((text) => text.includes(`conversation-${id}`))).toEqual([]);
      }
      expect(seen.filter((text) => /conversation/i.test(text))).toEqual([]);
    }
    // Replacement still works: a newer push of the conversation has the same Topic on a device.
    expect(phoneAgain!.headers.topic).toBe(phone!.headers.topic);
    expect(phoneOther!.headers.topic).not.toBe(phone!.headers.topic);
    expect(tabletPush!.headers.topic).not.toBe(phone!.headers.topic);
    // The device, which holds the key, still reads the conversation's tag.
    const { payload } = await opened(child.device, phoneAgain!, 24 * 3600);
    expect(payload.tag).toBe(`conversation-${first}`);
  });

  it('pushes at most once a minute per conversation and kind', async () => {
    const child = await subscribedChild();
    const id = await openMail(child.token);
    const first = receiver.next(child.device.path);
    expect((await answer(id, 'Ett')).status).toBe(201);
    await first;
    expect((await answer(id, 'Två')).status).toBe(201);
    await server.ctx.push.settled();
    expect(receiver.count(child.device.path)).toBe(1);
    // Another conversation is another burst: it is pushed.
    const other = await openMail(child.token);
    const next = receiver.next(child.device.path);
    await answer(other);
    const { payload } = await opened(child.device, await next, 24 * 3600);
    expect(payload.tag).toBe(`conversation-${other}`);
    expect(receiver.count(child.device.path)).toBe(2);
  });

  it('refuses an endpoint on a host that is no known push service, over http, or with broken keys', async () => {
    const child = await newChild();
    const device = newDevice(receiver);
    const withEndpoint = (endpoint: string) => ({ ...device.body, endpoint });
    for (const endpoint of [
      'https://evil.example/push/1',
      'https://fcm.googleapis.com.evil.example/push/1',
      'https://notify.windows.com.evil.example/x',
      'https://user@127.0.0.1/push/1',
      receiver.origin.replace('https://', 'https://user:pw@') + '/push/1',
      // Hosts that WHATWG URL and Node's url.parse (what web-push connects with) read differently.
      'https://attacker.example;.push.apple.com/push/1',
      'https://attacker.example\t.push.apple.com/push/1',
      'https://attacker.example\\.push.apple.com/push/1',
      'https://attacker.example%3B.push.apple.com/push/1',
      // An allowed host on a port its entry does not name, or with a user.
      'https://web.push.apple.com:8443/push/1',
      'https://user:pw@web.push.apple.com/push/1',
    ]) {
      expect((await subscribe(child.token, withEndpoint(endpoint))).status, endpoint).toBe(400);
    }
    expect(
      (await subscribe(child.token, withEndpoint(device.body.endpoint.replace('https:', 'http:')))).status,
    ).toBe(400);
    const point = device.ecdh.getPublicKey();
    const offCurve = Buffer.from(point);
    offCurve[64] = offCurve[64]! ^ 1;
    for (const keys of [
      { p256dh: offCurve.toString('base64url'), auth: device.body.keys.auth },
      {
        p256dh: Buffer.concat([Buffer.from([3]), point.subarray(1)]).toString('base64url'),
        auth: device.body.keys.auth,
      },
      { p256dh: device.body.keys.p256dh, auth: randomBytes(15).toString('base64url') + 'A' },
      { p256dh: device.body.keys.p256dh, auth: 'not base64url!!!!!!!!!!' },
      { p256dh: device.body.keys.p256dh },
    ]) {
      expect((await subscribe(child.token, { ...device.body, keys })).status, JSON.stringify(keys)).toBe(400);
    }
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(0);
    // The same body with an allowed endpoint is taken: the refusals above were for what they changed.
    expect((await subscribe(child.token, device.body)).status).toBe(204);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(1);
  });

  it('matches wildcard push service hosts by suffix only', () => {
    const hosts = DEFAULT_PUSH_SERVICE_HOSTS;
    expect(isAllowedEndpoint('https://wns2-par02p.notify.windows.com/w/?token=x', hosts)).toBe(true);
    expect(isAllowedEndpoint('https://api.push.apple.com/3/device/x', hosts)).toBe(true);
    expect(isAllowedEndpoint('https://web.push.apple.com/abc', hosts)).toBe(true);
    expect(isAllowedEndpoint('https://push.apple.com/abc', hosts)).toBe(false);
    expect(isAllowedEndpoint('https://evilnotify.windows.com/abc', hosts)).toBe(false);
    expect(isAllowedEndpoint('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
    expect(isAllowedEndpoint('http://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(false);
  });

  it('allows only canonical endpoints that both URL parsers read alike, on the ports their entry names', () => {
    const hosts = DEFAULT_PUSH_SERVICE_HOSTS;
    for (const endpoint of [
      'https://attacker.example;.push.apple.com/p',
      'https://attacker.example\t.push.apple.com/p',
      'https://attacker.example\n.push.apple.com/p',
      'https://attacker.example\\.push.apple.com/p',
      'https://attacker.example%3B.push.apple.com/p',
      'https://attacker.example%2F.push.apple.com/p',
      'https://WEB.push.apple.com/p',
      ' https://web.push.apple.com/p',
      'https://web.push.apple.com:443/p',
      'https://web.push.apple.com:8443/p',
      'https://user@web.push.apple.com/p',
      'https://:pw@web.push.apple.com/p',
      'https://[::1]/p',
    ]) {
      expect(isAllowedEndpoint(endpoint, hosts), JSON.stringify(endpoint)).toBe(false);
    }
    expect(isAllowedEndpoint('https://web.push.apple.com/p', hosts)).toBe(true);
    expect(isAllowedEndpoint('https://localhost:8443/p', ['localhost:8443'])).toBe(true);
    expect(isAllowedEndpoint('https://localhost:8444/p', ['localhost:8443'])).toBe(false);
    expect(isAllowedEndpoint('https://localhost/p', ['localhost:8443'])).toBe(false);
    expect(isAllowedEndpoint('https://localhost/p', ['localhost:443'])).toBe(true);
    expect(isAllowedEndpoint('https://localhost:8444/p', ['localhost:*'])).toBe(true);
    expect(isAllowedEndpoint('https://localhost/p', ['localhost:*'])).toBe(true);
    expect(isAllowedEndpoint('https://a.push.example:8443/p', ['*.push.example:8443'])).toBe(true);
    expect(isAllowedEndpoint('https://push.example:8443/p', ['*.push.example:8443'])).toBe(false);
  });

  it('reads PUSH_SERVICE_HOSTS and PUSH_SUBJECT, and refuses PUSH_TEST_CA_FILE in production', () => {
    expect(loadConfig({}).pushServiceHosts).toEqual(DEFAULT_PUSH_SERVICE_HOSTS);
    expect(loadConfig({ PUSH_SERVICE_HOSTS: ' Push.Example.org, *.push.example ' }).pushServiceHosts).toEqual(
      ['push.example.org', '*.push.example'],
    );
    expect(() => loadConfig({ PUSH_SERVICE_HOSTS: 'https://push.example.org/' })).toThrow(
      /PUSH_SERVICE_HOSTS/,
    );
    expect(
      loadConfig({ PUSH_SERVICE_HOSTS: 'localhost:8443, Localhost:*, *.push.example:8443' }).pushServiceHosts,
    ).toEqual(['localhost:8443', 'localhost:*', '*.push.example:8443']);
    for (const bad of ['localhost:', 'localhost:0', 'localhost:65536', 'localhost:08443', 'user@localhost']) {
      expect(() => loadConfig({ PUSH_SERVICE_HOSTS: bad }), bad).toThrow(/PUSH_SERVICE_HOSTS/);
    }
    expect(loadConfig({}).pushSubject).toBe('mailto:webmaster@localhost');
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://stod.example' }).pushSubject).toBe('https://stod.example');
    expect(() => loadConfig({ PUSH_SUBJECT: 'drift@example.org' })).toThrow(/PUSH_SUBJECT/);
    expect(loadConfig({ PUSH_TEST_CA_FILE: 'ca.pem' }).pushTestCaFile).toBe(path.resolve('ca.pem'));
    expect(() => loadConfig({ ...PRODUCTION_ENV, PUSH_TEST_CA_FILE: 'ca.pem' })).toThrow(/tests only/);
  });

  it('refuses staff tokens on every push route', async () => {
    const device = newDevice(receiver);
    expect((await api(server.url, '/portal/push/key', { token: counsellor })).status).toBe(403);
    expect((await subscribe(counsellor, device.body)).status).toBe(403);
    expect(
      (await api(server.url, '/portal/push/subscriptions', { token: counsellor, method: 'DELETE' })).status,
    ).toBe(403);
    expect((await api(server.url, '/portal/push/key')).status).toBe(401);
  });

  it('keeps one subscription per login, replaced by the next, and deletes it on request', async () => {
    const child = await subscribedChild();
    const accountId = accountOf(child.token);
    const second = newDevice(receiver);
    expect((await subscribe(child.token, second.body)).status).toBe(204);
    expect(await subscriptionsOf(accountId)).toHaveLength(1);
    const id = await openChat(child.token);
    const push = receiver.next(second.path);
    await accept(id);
    await push;
    await server.ctx.push.settled();
    expect(receiver.count(child.device.path)).toBe(0);
    const res = await api(server.url, '/portal/push/subscriptions', { token: child.token, method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await subscriptionsOf(accountId)).toHaveLength(0);
  });

  it('lets a burst of subscriptions from one child through only up to the hourly limit, one row per login', async () => {
    const limited = await startTestServer({
      config: {
        rateLimitFactor: 1,
        signingKeySecret: SECRET,
        pushServiceHosts: [...DEFAULT_PUSH_SERVICE_HOSTS, '127.0.0.1:*'],
        pushSubject: SUBJECT,
      },
    });
    try {
      const username = `push-flod-${randomUUID().slice(0, 6)}`;
      const password = 'blå-ballong-73';
      const body = { username, password };
      expect((await api(limited.url, '/portal/api/accounts/registercontact', { body })).status).toBe(201);
      const { access_token: token } = await login(limited.url, username, password);
      const burst = await Promise.all(
        Array.from({ length: 25 }, () =>
          api(limited.url, '/portal/push/subscriptions', { token, body: newDevice(receiver).body }),
        ),
      );
      const statuses = burst.map((res) => res.status);
      // 20 an hour per account (server/security/rate-limiter.ts).
      expect(statuses.filter((status) => status === 204)).toHaveLength(20);
      expect(statuses.filter((status) => status === 429)).toHaveLength(5);
      const rows = await limited.ctx.db
        .selectFrom('push_subscriptions')
        .select('id')
        .where('account_id', '=', accountOf(token))
        .execute();
      expect(rows).toHaveLength(1);
    } finally {
      await limited.dispose();
    }
  });

  it('keeps exactly one current VAPID key when two rotations run at once', async () => {
    const child = await subscribedChild();
    const one = new VapidKeys(server.ctx.db, SECRET);
    const other = new VapidKeys(server.ctx.db, SECRET);
    await Promise.all([one.load(), other.load()]);
    const [a, b] = await Promise.all([one.rotate(), other.rotate()]);
    const current = await server.ctx.db
      .selectFrom('vapid_keys')
      .select('id')
      .where('retired_date', 'is', null)
      .execute();
    expect(current).toHaveLength(1);
    expect(a.id).toBe(current[0]!.id);
    expect(b.id).toBe(current[0]!.id);
    expect(await publicKey(child.token)).toBe(a.publicKey);
  });

  it('keeps at most 10 subscriptions per account, dropping the oldest', async () => {
    const child = await newChild();
    const devices: Device[] = [];
    for (let i = 0; i < 11; i++) {
      const tokens = i === 0 ? child.tokens : await login(server.url, child.username, child.password);
      const device = newDevice(receiver);
      devices.push(device);
      expect((await subscribe(tokens.access_token, device.body)).status).toBe(204);
    }
    const kept = await server.ctx.db
      .selectFrom('push_subscriptions')
      .select('endpoint')
      .where('account_id', '=', accountOf(child.token))
      .execute();
    expect(kept).toHaveLength(10);
    expect(kept.map((k) => k.endpoint)).not.toContain(devices[0]!.body.endpoint);
  });

  it('deletes a subscription its push service answers 410 for, and pushes nothing more to it', async () => {
    const child = await subscribedChild();
    receiver.statusOf.set(child.device.path, 410);
    const id = await openMail(child.token);
    const push = receiver.next(child.device.path);
    await answer(id);
    await push;
    await server.ctx.push.settled();
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(0);
    // A later event (another conversation, so no burst rule in the way) reaches nobody.
    await answer(await openMail(child.token));
    await server.ctx.push.settled();
    expect(receiver.count(child.device.path)).toBe(1);
  });

  it("deletes the login's subscription at logout, and only that login's", async () => {
    const child = await subscribedChild();
    const accountId = accountOf(child.token);
    const other = await login(server.url, child.username, child.password);
    expect((await subscribe(other.access_token, newDevice(receiver).body)).status).toBe(204);
    expect(await subscriptionsOf(accountId)).toHaveLength(2);
    const res = await fetch(`${server.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: 'portal-web',
        token: child.tokens.refresh_token,
        token_type_hint: 'refresh_token',
      }),
    });
    expect(res.status).toBe(200);
    const left = await subscriptionsOf(accountId);
    expect(left).toHaveLength(1);
    expect(left[0]!.login_key).not.toBe(claimsOf(child.token).sid);
  });

  it('deletes every subscription of the account at a password change', async () => {
    const child = await subscribedChild();
    const other = await login(server.url, child.username, child.password);
    expect((await subscribe(other.access_token, newDevice(receiver).body)).status).toBe(204);
    const bystander = await subscribedChild();
    const res = await api(server.url, '/portal/api/accounts/changePassword', {
      token: child.token,
      body: { oldPassword: child.password, password: 'ny-grön-ballong-84' },
    });
    expect(res.status).toBe(200);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(0);
    expect(await subscriptionsOf(accountOf(bystander.token))).toHaveLength(1);
  });

  it('deletes the subscriptions when the account is deleted', async () => {
    const child = await subscribedChild();
    const res = await api(server.url, '/portal/deleteContact', { token: child.token, body: {} });
    expect(res.status).toBe(200);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(0);
  });

  it("deletes the login's subscription when a refresh token is used twice", async () => {
    const child = await subscribedChild();
    const first = await refreshRequest(server.url, child.tokens.refresh_token);
    expect(first.status).toBe(200);
    const second = await refreshRequest(server.url, String(first.body.refresh_token));
    expect(second.status).toBe(200);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(1);
    // The first token again, after its successor was used: reuse, and the login is revoked.
    expect((await refreshRequest(server.url, child.tokens.refresh_token)).status).toBe(400);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(0);
  });

  it('pushes nothing to a login that ended without a logout, and maintenance deletes its subscription', async () => {
    const expired = await subscribedChild();
    const revoked = await subscribedChild();
    const alive = await subscribedChild();
    const chats = [await openChat(expired.token), await openChat(revoked.token), await openChat(alive.token)];
    const past = new Date(Date.now() - 1000).toISOString();
    // The family's end reached (no logout, so nothing deleted the subscription)...
    await server.ctx.db
      .updateTable('refresh_tokens')
      .set({ family_expires_at: past, expires_at: past })
      .where('family_id', '=', claimsOf(expired.token).sid)
      .execute();
    // ...and a family revoked in the database alone.
    await server.ctx.db
      .updateTable('refresh_tokens')
      .set({ revoked_date: past })
      .where('family_id', '=', claimsOf(revoked.token).sid)
      .execute();
    expect(await subscriptionsOf(accountOf(expired.token))).toHaveLength(1);
    expect(await subscriptionsOf(accountOf(revoked.token))).toHaveLength(1);
    const push = receiver.next(alive.device.path);
    for (const id of chats) expect((await accept(id)).status).toBe(200);
    await push;
    await server.ctx.push.settled();
    expect(receiver.count(expired.device.path)).toBe(0);
    expect(receiver.count(revoked.device.path)).toBe(0);
    expect(receiver.count(alive.device.path)).toBe(1);
    // The expired login's access token still verifies for its last minutes: it subscribes nothing.
    expect((await subscribe(expired.token, newDevice(receiver).body)).status).toBe(401);

    expect(await runMaintenance(server.ctx)).toEqual([]);
    expect(await subscriptionsOf(accountOf(expired.token))).toHaveLength(0);
    expect(await subscriptionsOf(accountOf(revoked.token))).toHaveLength(0);
    expect(await subscriptionsOf(accountOf(alive.token))).toHaveLength(1);
  });

  it('keeps the VAPID private key encrypted at rest', async () => {
    const rows = await server.ctx.db.selectFrom('vapid_keys').select(['public_key', 'private_key']).execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key.startsWith('enc:v1:')).toBe(true);
      // A P-256 private key in base64url is 43 characters: the stored value is no such thing.
      expect(row.private_key).not.toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
  });

  it('rotates the VAPID key with npm run keys:rotate -- --vapid, deleting every subscription', async () => {
    const child = await subscribedChild();
    const before = await publicKey(child.token);
    const env = {
      ...process.env,
      DATABASE_URL: server.databaseUrl,
      SIGNING_KEY_SECRET: SECRET,
      NODE_ENV: 'test',
      DEMO_SEED: '0',
    };
    await run(path.resolve('node_modules/.bin/tsx'), ['server/rotate-signing-key.ts', '--vapid'], { env });
    const after = await publicKey(child.token);
    expect(after).not.toBe(before);
    expect(await server.ctx.db.selectFrom('push_subscriptions').select('id').execute()).toHaveLength(0);
    // Subscribed again with the new key, the child's devices hear the next event, signed with it.
    expect((await subscribe(child.token, child.device.body)).status).toBe(204);
    const id = await openChat(child.token);
    const push = receiver.next(child.device.path);
    await accept(id);
    const { k } = await opened(child.device, await push, 15 * 60);
    expect(k).toBe(after);
  });

  it('refuses to rotate the VAPID key without SIGNING_KEY_SECRET, or with another one', async () => {
    const child = await subscribedChild();
    const before = await server.ctx.db.selectFrom('vapid_keys').selectAll().orderBy('id').execute();
    expect(before.every((r) => r.private_key.startsWith('enc:v1:'))).toBe(true);
    const { SIGNING_KEY_SECRET: _, ...inherited } = process.env;
    const env = { ...inherited, DATABASE_URL: server.databaseUrl, NODE_ENV: 'test', DEMO_SEED: '0' };
    for (const secret of [undefined, 'another-signing-key-secret-of-32-characters']) {
      const failure = await run(
        path.resolve('node_modules/.bin/tsx'),
        ['server/rotate-signing-key.ts', '--vapid'],
        { env: secret ? { ...env, SIGNING_KEY_SECRET: secret } : env },
      ).then(
        () => null,
        (error: { code?: unknown; stderr?: string }) => error,
      );
      expect(failure, String(secret)).not.toBeNull();
      expect(failure!.code).not.toBe(0);
      expect(failure!.stderr).toMatch(/SIGNING_KEY_SECRET/);
    }
    // Nothing was made or changed: no key in clear, and the subscriptions kept.
    expect(await server.ctx.db.selectFrom('vapid_keys').selectAll().orderBy('id').execute()).toEqual(before);
    expect(await subscriptionsOf(accountOf(child.token))).toHaveLength(1);
  });
});
