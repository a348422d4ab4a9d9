import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startFaultProxy } from '../../harness/fault-proxy.ts';
import type { FaultProxy } from '../../harness/fault-proxy.ts';

/**
 * A real upstream: `/stream` answers with one chunk and stays open until a test ends it; every
 * other path echoes the request as JSON. A WebSocket server on the same port echoes messages.
 */
const upstreamEvents = new EventEmitter();
const upstreamCounts = new Map<string, number>();
const upstreamArrivals = new Map<string, number>();
const upstreamCount = (pathname: string) => upstreamCounts.get(pathname) ?? 0;
let wsConnections = 0;

const upstream = http.createServer((req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://upstream').pathname;
  upstreamCounts.set(pathname, upstreamCount(pathname) + 1);
  upstreamArrivals.set(pathname, performance.now());
  if (pathname === '/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    upstreamEvents.emit('stream', res);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, 'Made Up', {
      'content-type': 'application/json',
      'x-upstream': 'yes',
      'set-cookie': ['a=1; Path=/', 'b=2; Path=/'],
    });
    res.end(
      JSON.stringify({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      }),
    );
  });
});
const wss = new WebSocketServer({ server: upstream });
let wsHost: string | undefined;
wss.on('connection', (ws, req) => {
  wsConnections += 1;
  wsHost = req.headers.host;
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});

interface Reply {
  status: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(
  url: string,
  init: { method?: string; body?: string; headers?: Record<string, string>; agent?: http.Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: init.method ?? 'GET', headers: init.headers, agent: init.agent ?? false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            statusMessage: res.statusMessage ?? '',
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

async function openWebSocket(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await once(ws, 'open');
  return ws;
}

/** The error a WebSocket client sees when its handshake fails. */
async function handshakeError(url: string): Promise<Error> {
  const ws = new WebSocket(url);
  const [error] = (await once(ws, 'error')) as [Error];
  return error;
}

async function echo(ws: WebSocket, text: string): Promise<string> {
  ws.send(text);
  const [data] = (await once(ws, 'message')) as [Buffer];
  return data.toString();
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let proxy: FaultProxy;

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  wss.close();
  upstream.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

beforeEach(async () => {
  upstreamCounts.clear();
  upstreamArrivals.clear();
  wsConnections = 0;
  wsHost = undefined;
  const { port } = upstream.address() as net.AddressInfo;
  proxy = await startFaultProxy({ target: `http://127.0.0.1:${port}` });
});

afterEach(async () => {
  await proxy.close();
});

describe('forwarding', () => {
  it('forwards method, path, query, headers and body, keeping the Host the browser used', async () => {
    expect(proxy.origin).toBe(`http://127.0.0.1:${proxy.port}`);
    const reply = await request(`${proxy.origin}/portal/things?x=1&y=%C3%A5`, {
      method: 'POST',
      body: '{"hello":"world"}',
      headers: { 'content-type': 'application/json', 'x-custom': 'kept' },
    });

    expect(reply.status).toBe(201);
    expect(reply.statusMessage).toBe('Made Up');
    expect(reply.headers['x-upstream']).toBe('yes');
    expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    const seen = JSON.parse(reply.body) as { method: string; url: string; headers: Record<string, string> };
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/portal/things?x=1&y=%C3%A5');
    expect(seen.headers['host']).toBe(`127.0.0.1:${proxy.port}`);
    expect(seen.headers['x-custom']).toBe('kept');
    expect(seen.headers['content-type']).toBe('application/json');
    expect(Object.keys(seen.headers).filter((name) => name.startsWith('x-forwarded'))).toEqual([]);
    expect(JSON.parse(reply.body)).toMatchObject({ body: '{"hello":"world"}' });
  });

  it('streams a response: headers and each chunk arrive while the server is still writing', async () => {
    const streaming = once(upstreamEvents, 'stream') as Promise<[http.ServerResponse]>;
    const req = http.request(`${proxy.origin}/stream`, { agent: false });
    req.end();
    const [upstreamRes] = await streaming;
    // The server has sent its headers only.
    const [res] = (await once(req, 'response')) as [http.IncomingMessage];
    expect(res.headers['content-type']).toBe('text/event-stream');

    upstreamRes.write('first\n');
    const [first] = (await once(res, 'data')) as [Buffer];
    expect(first.toString()).toBe('first\n');
    expect(upstreamRes.writableEnded).toBe(false);
    const rest: Buffer[] = [];
    res.on('data', (chunk: Buffer) => rest.push(chunk));
    upstreamRes.end('second\n');
    await once(res, 'end');
    expect(Buffer.concat(rest).toString()).toBe('second\n');
  });

  it('answers 502 when the server cannot be reached, for requests and for upgrades', async () => {
    const lost = await startFaultProxy({ target: `http://127.0.0.1:${await closedPort()}` });
    try {
      const reply = await request(`${lost.origin}/portal/x`);
      expect(reply.status).toBe(502);
      const error = await handshakeError(`ws://127.0.0.1:${lost.port}/hubs/echo`);
      expect(error.message).toMatch(/502/);
      expect(lost.openSockets).toBe(0);
    } finally {
      await lost.close();
    }
  });
});

describe('rules on HTTP requests', () => {
  it('hang: the request is neither forwarded nor answered until offline() destroys it', async () => {
    proxy.addRule({ path: '/portal/hang', action: 'hang' });
    const arrived = proxy.waitForRequest({ path: '/portal/hang' });
    const hung = request(`${proxy.origin}/portal/hang`);
    let settled = false;
    hung.then(
      () => (settled = true),
      () => (settled = true),
    );
    await arrived;

    // Another request comes and goes while the hung one waits.
    expect((await request(`${proxy.origin}/portal/other`)).status).toBe(200);
    expect(settled).toBe(false);
    expect(upstreamCount('/portal/hang')).toBe(0);

    proxy.offline();
    await expect(hung).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('status: answers at once with the status (default 500) and a JSON body, without forwarding', async () => {
    proxy.addRule({ path: '/portal/a', action: 'status' });
    proxy.addRule({ path: '/portal/b', action: 'status', status: 503 });

    const a = await request(`${proxy.origin}/portal/a`);
    expect(a.status).toBe(500);
    expect(JSON.parse(a.body)).toEqual({ message: 'fault' });
    expect(a.headers['content-type']).toMatch(/^application\/json/);
    const b = await request(`${proxy.origin}/portal/b`, { method: 'POST', body: 'ignored' });
    expect(b.status).toBe(503);
    expect(upstreamCount('/portal/a') + upstreamCount('/portal/b')).toBe(0);
  });

  it('drop: the server gets the request, the client gets no answer but a broken socket', async () => {
    proxy.addRule({ path: '/portal/drop', action: 'drop' });
    await expect(
      request(`${proxy.origin}/portal/drop`, { method: 'POST', body: 'lost' }),
    ).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(upstreamCount('/portal/drop')).toBe(1);
  });

  it('slow: forwards, then holds the response back for delayMs', async () => {
    const delayMs = 150;
    proxy.addRule({ path: '/portal/slow', action: 'slow', delayMs });
    const reply = await request(`${proxy.origin}/portal/slow`);
    const answeredAt = performance.now();

    expect(reply.status).toBe(200);
    expect(upstreamCount('/portal/slow')).toBe(1);
    // Timers may round down by a millisecond.
    expect(answeredAt - upstreamArrivals.get('/portal/slow')!).toBeGreaterThanOrEqual(delayMs - 2);
  });

  it('reset: destroys the client socket at once, without forwarding', async () => {
    proxy.addRule({ path: '/portal/reset', action: 'reset' });
    await expect(request(`${proxy.origin}/portal/reset`)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(upstreamCount('/portal/reset')).toBe(0);
  });

  it('times: a rule applies to that many matching requests, counts its hits, and is then gone', async () => {
    const rule = proxy.addRule({ path: '/portal/t', action: 'status', status: 503, times: 2 });
    expect((await request(`${proxy.origin}/portal/t`)).status).toBe(503);
    expect((await request(`${proxy.origin}/portal/t`)).status).toBe(503);
    expect((await request(`${proxy.origin}/portal/t`)).status).toBe(200);
    expect(rule.hits).toBe(2);
    expect(upstreamCount('/portal/t')).toBe(1);
  });

  it('matches method case-insensitively, a string as a path prefix and a RegExp on path and query', async () => {
    const byMethod = proxy.addRule({
      method: 'post',
      path: /^\/portal\/m\?x=1$/,
      action: 'status',
      status: 418,
    });
    proxy.addRule({ path: '/portal/m', action: 'status', status: 409 }); // checked second
    proxy.addRule({ path: '/portal/pre', action: 'status', status: 410 });

    expect((await request(`${proxy.origin}/portal/m?x=1`, { method: 'POST' })).status).toBe(418);
    expect((await request(`${proxy.origin}/portal/m?x=1`)).status).toBe(409);
    expect((await request(`${proxy.origin}/portal/m?x=2`, { method: 'POST' })).status).toBe(409);
    expect((await request(`${proxy.origin}/portal/prefix/deeper?q`)).status).toBe(410);
    expect((await request(`${proxy.origin}/portal/other/pre`)).status).toBe(200);

    byMethod.remove();
    expect((await request(`${proxy.origin}/portal/m?x=1`, { method: 'POST' })).status).toBe(409);
    expect(byMethod.hits).toBe(1);
    proxy.clearRules();
    expect((await request(`${proxy.origin}/portal/m?x=1`, { method: 'POST' })).status).toBe(201);
  });
});

describe('WebSocket (upgrade) connections', () => {
  it('pipes a WebSocket both ways, with the Host the browser used', async () => {
    const ws = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo?id=1`);
    expect(await echo(ws, 'hello')).toBe('hello');
    expect(await echo(ws, 'again')).toBe('again');
    expect(proxy.openSockets).toBe(1);
    expect(wsHost).toBe(`127.0.0.1:${proxy.port}`);

    const closed = once(ws, 'close');
    ws.close();
    await closed;
    expect(proxy.openSockets).toBe(0);
  });

  it('forwards bytes the client sent right behind its handshake, before the server answered', async () => {
    const socket = net.connect(proxy.port, '127.0.0.1');
    await once(socket, 'connect');
    // A masked client text frame ("early"), sent in the same write as the handshake.
    const mask = Buffer.from([1, 2, 3, 4]);
    const payload = Buffer.from('early');
    const frame = Buffer.concat([
      Buffer.from([0x81, 0x80 | payload.length]),
      mask,
      payload.map((byte, i) => byte ^ mask[i % 4]!),
    ]);
    const handshake =
      'GET /hubs/echo HTTP/1.1\r\n' +
      `Host: 127.0.0.1:${proxy.port}\r\n` +
      'Upgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
    socket.write(Buffer.concat([Buffer.from(handshake), frame]));

    let received = Buffer.alloc(0);
    const echoed = Buffer.from([0x81, payload.length, ...payload]);
    while (!received.includes(echoed)) {
      const [chunk] = (await once(socket, 'data')) as [Buffer];
      received = Buffer.concat([received, chunk]);
    }
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
    socket.destroy();
  });

  it('cutSockets() kills open WebSockets but stays online', async () => {
    const ws = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
    const second = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
    expect(proxy.openSockets).toBe(2);

    const closed = once(ws, 'close') as Promise<[number]>;
    const secondClosed = once(second, 'close');
    proxy.cutSockets();
    expect(proxy.openSockets).toBe(0);
    const [code] = await closed;
    expect(code).toBe(1006); // abnormal closure: no close frame
    await secondClosed;

    expect(proxy.isOnline).toBe(true);
    expect((await request(`${proxy.origin}/portal/after`)).status).toBe(200);
    const again = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
    expect(await echo(again, 'back')).toBe('back');
    again.terminate();
  });

  it('applies rules to upgrade requests: status, reset and drop refuse the WebSocket', async () => {
    const url = `ws://127.0.0.1:${proxy.port}/hubs/echo`;
    proxy.addRule({ path: '/hubs/', action: 'status', status: 503, times: 1 });
    proxy.addRule({ path: '/hubs/', action: 'reset', times: 1 });
    proxy.addRule({ path: '/hubs/', action: 'drop', times: 1 });

    expect((await handshakeError(url)).message).toMatch(/503/);
    expect((await handshakeError(url)).message).toMatch(/socket hang up/);
    expect(wsConnections).toBe(0);
    await handshakeError(url); // drop: the server accepted it, the client never hears
    expect(wsConnections).toBe(1);
    expect(proxy.openSockets).toBe(0);

    const ws = await openWebSocket(url);
    expect(await echo(ws, 'through')).toBe('through');
    ws.terminate();
  });
});

describe('offline and online', () => {
  it('offline() kills WebSockets and keep-alive connections and refuses new ones; online() restores', async () => {
    const agent = new http.Agent({ keepAlive: true });
    try {
      const keptAlive = new Promise<net.Socket>((resolve) => {
        const req = http.request(`${proxy.origin}/portal/first`, { agent }, (res) => res.resume());
        req.on('socket', resolve);
        req.end();
      });
      const socket = await keptAlive;
      const ws = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
      const wsClosed = once(ws, 'close');
      const socketClosed = once(socket, 'close');

      proxy.offline();
      expect(proxy.isOnline).toBe(false);
      expect(proxy.openSockets).toBe(0);
      await Promise.all([wsClosed, socketClosed]);

      await expect(request(`${proxy.origin}/portal/x`)).rejects.toMatchObject({ code: 'ECONNRESET' });
      await handshakeError(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
      expect(upstreamCount('/portal/x')).toBe(0);

      proxy.online();
      expect(proxy.isOnline).toBe(true);
      expect((await request(`${proxy.origin}/portal/x`, { agent })).status).toBe(200);
      const again = await openWebSocket(`ws://127.0.0.1:${proxy.port}/hubs/echo`);
      expect(await echo(again, 'online')).toBe('online');
      again.terminate();
    } finally {
      agent.destroy();
    }
  });
});

describe('waitForRequest', () => {
  it('resolves with the next matching request, path with query', async () => {
    const seen = proxy.waitForRequest({ method: 'POST', path: '/portal/w' });
    await request(`${proxy.origin}/portal/w?first`); // a GET: no match
    await request(`${proxy.origin}/portal/w?q=1`, { method: 'POST' });
    expect(await seen).toEqual({ method: 'POST', path: '/portal/w?q=1' });
  });

  it('sees requests that a rule then refuses, and upgrades', async () => {
    proxy.addRule({ path: '/hubs/', action: 'reset' });
    const seen = proxy.waitForRequest({ path: /^\/hubs\/echo\?id=\d+$/ });
    await handshakeError(`ws://127.0.0.1:${proxy.port}/hubs/echo?id=7`);
    expect(await seen).toEqual({ method: 'GET', path: '/hubs/echo?id=7' });
  });

  it('rejects when no matching request arrives in time', async () => {
    await expect(proxy.waitForRequest({ path: '/never' }, 20)).rejects.toThrow(/no request for/);
  });
});
