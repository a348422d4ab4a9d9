/**
 * A fault-injecting HTTP + WebSocket reverse proxy for the end-to-end tests.
 *
 * Why it exists: Playwright's network emulation (`context.setOffline`, `page.route`) does not reach
 * the requests of a SharedWorker, and the app does all its networking there (the API under
 * `/portal/...`, the SignalR hub under `/hubs/...` over WebSocket or long polling, `/connect/token`).
 * So a spec loads its pages from this proxy's origin instead of the server's. The server builds
 * every URL it hands out from the origin the browser used (the `Host` header, which the proxy
 * forwards unchanged), so everything the page and its SharedWorker do passes through here, and a
 * test can make the network hang, fail, lose responses, slow down, reset or go away entirely.
 *
 * What it does:
 * - HTTP requests are forwarded with their method, path, query and headers (the `Host` header stays
 *   the proxy's; no `X-Forwarded-*` headers are added, the server need not trust them). Bodies are
 *   streamed both ways, so long polling and server-sent events work. Only the hop-by-hop connection
 *   headers (`Connection`, `Keep-Alive`, `Proxy-Connection` and those `Connection` names) are left
 *   out: they describe one connection, browser↔proxy or proxy↔server, not the request.
 * - Upgrade requests (WebSocket) are forwarded as raw bytes: the proxy opens a TCP connection to
 *   the server, writes the original request line and headers, then the bytes the client sent after
 *   its headers (`head`), and pipes both ways from then on.
 * - Rules (`addRule`) apply to both kinds of request; the first matching rule wins.
 *
 * Every connection gets its own upstream connection (no pooling), so killing one never touches
 * another, and an idle pooled connection can never fail a request by itself.
 *
 * A caveat for specs: a browser may silently resend a request whose reused keep-alive connection
 * closed before any byte of the response arrived (Chromium does so, even for POST). A `drop` or
 * `reset` rule with `times: 1` can therefore be invisible to the page, the resent request passing
 * through; give such rules enough `times`, or none, and remove them when done.
 */
import http from 'node:http';
import net from 'node:net';

export interface FaultRule {
  /**
   * Which requests: method (optional, case-insensitive) and a path test (string = prefix of
   * pathname, or RegExp on pathname+search).
   */
  method?: string;
  path: string | RegExp;
  /**
   * hang: never answer (keep socket open, do not forward); status: answer with this status at once
   * without forwarding (JSON body {message:'fault'}); drop: forward to the server, wait for its
   * response, then destroy the client socket without answering ("lost response"); slow: forward but
   * delay the response by delayMs; reset: destroy the client socket at once without forwarding.
   */
  action: 'hang' | 'status' | 'drop' | 'slow' | 'reset';
  /** For 'status'; default 500. */
  status?: number;
  /** For 'slow'; default 0. */
  delayMs?: number;
  /** How many matching requests this rule applies to; default unlimited. Once used up it is removed. */
  times?: number;
}

export interface FaultProxy {
  readonly port: number;
  /** `http://127.0.0.1:${port}` */
  readonly origin: string;
  /** Rules are checked in the order added; first match wins. Returns a handle to remove it. */
  addRule(rule: FaultRule): { remove(): void; readonly hits: number };
  clearRules(): void;
  /**
   * Network gone: every open socket (HTTP keep-alive and WebSocket/upgrade, both directions) is
   * destroyed at once, and new connections are destroyed on accept until online(). Hung requests
   * are destroyed too.
   */
  offline(): void;
  online(): void;
  readonly isOnline: boolean;
  /** Destroys every open WebSocket (upgraded) connection but stays online (a killed socket). */
  cutSockets(): void;
  /**
   * A silent loss (weak signal, Wi-Fi without internet; the browser still says online): every open
   * connection goes dead without a close, for good, carrying nothing either way, and every request
   * and WebSocket opened while silent is held unanswered (and stays so). `speak()` ends it: new
   * connections work again, the dead ones stay dead until the browser gives them up.
   */
  silence(): void;
  speak(): void;
  readonly isSilent: boolean;
  /** Count of currently open upgraded (WebSocket) connections. */
  readonly openSockets: number;
  /**
   * Resolves with the next request (method + path) that matches, as it arrives at the proxy (before
   * any rule acts on it). Useful to await an event instead of sleeping. Rejects after timeoutMs
   * (default 10 s) or when the proxy closes.
   */
  waitForRequest(
    match: { method?: string; path: string | RegExp },
    timeoutMs?: number,
  ): Promise<{ method: string; path: string }>;
  /**
   * Every request (method + path with query) that reached the proxy, in order of arrival; `held`
   * when a silent loss swallowed it (see silence()).
   */
  readonly requestLog: readonly { method: string; path: string; held?: true }[];
  close(): Promise<void>;
}

interface ActiveRule {
  rule: FaultRule;
  hits: number;
}

interface Waiter {
  match: { method?: string; path: string | RegExp };
  resolve(request: { method: string; path: string }): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** An upgraded connection: the browser's socket and the one to the server. */
interface Tunnel {
  client: net.Socket;
  upstream: net.Socket;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection']);

const ignoreError = () => {};

function matches(match: { method?: string; path: string | RegExp }, method: string, url: string): boolean {
  if (match.method !== undefined && match.method.toUpperCase() !== method.toUpperCase()) return false;
  if (typeof match.path === 'string') return pathnameOf(url).startsWith(match.path);
  match.path.lastIndex = 0; // a /g or /y RegExp keeps state between test() calls
  return match.path.test(url);
}

function pathnameOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Raw headers (name, value, name, value...) without the hop-by-hop connection headers, including
 * any header the `Connection` header names.
 */
function endToEndHeaders(rawHeaders: string[]): string[] {
  const named = new Set(HOP_BY_HOP);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'connection') continue;
    for (const token of rawHeaders[i + 1]!.split(',')) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (!named.has(rawHeaders[i]!.toLowerCase())) kept.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return kept;
}

const FAULT_BODY = JSON.stringify({ message: 'fault' });
const UNREACHABLE_BODY = JSON.stringify({ message: 'fault proxy: upstream unreachable' });

function rawResponse(status: number, body: string): string {
  return (
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

export async function startFaultProxy(options: { target: string; port?: number }): Promise<FaultProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:') throw new Error(`fault proxy: only http targets, got ${options.target}`);
  const targetHost = target.hostname.replace(/^\[|\]$/g, '');
  const targetPort = Number(target.port || 80);

  let rules: ActiveRule[] = [];
  let waiters: Waiter[] = [];
  let isOnline = true;
  const requestLog: { method: string; path: string; held?: true }[] = [];
  /** Every socket a browser opened to the proxy (keep-alive, hung, upgraded). */
  const clientSockets = new Set<net.Socket>();
  /** HTTP requests being forwarded to the server. */
  const upstreamRequests = new Set<http.ClientRequest>();
  const tunnels = new Set<Tunnel>();
  let silent = false;
  /** Connections a silent loss killed: they carry nothing, and never close (see silence()). */
  const dead = new WeakSet<net.Socket>();
  /** Responses being streamed to the browser, to stop when their connection dies. */
  const streaming = new Map<http.ServerResponse, http.IncomingMessage>();
  const isDead = (socket: net.Socket) => silent || dead.has(socket);

  /** Logs the request and tells the waiters (before any rule acts on it). */
  function heard(method: string, url: string, held = false): void {
    const request = { method, path: url };
    requestLog.push(held ? { ...request, held: true } : request);
    waiters = waiters.filter((waiter) => {
      if (!matches(waiter.match, method, url)) return true;
      clearTimeout(waiter.timer);
      waiter.resolve(request);
      return false;
    });
  }

  /** Notifies the waiters, then takes the first matching rule (counting it and using it up). */
  function arrive(method: string, url: string): FaultRule | undefined {
    heard(method, url);
    const active = rules.find((r) => matches(r.rule, method, url));
    if (!active) return undefined;
    active.hits += 1;
    if (active.rule.times !== undefined && active.hits >= active.rule.times) {
      rules = rules.filter((r) => r !== active);
    }
    return active.rule;
  }

  function destroyTunnel(tunnel: Tunnel) {
    tunnels.delete(tunnel);
    tunnel.client.destroy();
    tunnel.upstream.destroy();
  }

  function forwardHttp(req: http.IncomingMessage, res: http.ServerResponse, rule: FaultRule | undefined) {
    const upstreamReq = http.request({
      host: targetHost,
      port: targetPort,
      method: req.method,
      path: req.url,
      headers: endToEndHeaders(req.rawHeaders),
      agent: false,
    });
    upstreamRequests.add(upstreamReq);
    const forget = () => upstreamRequests.delete(upstreamReq);
    upstreamReq.on('close', forget);

    let delay: NodeJS.Timeout | undefined;
    // The browser went away (or offline() killed its socket): stop the upstream side too.
    res.on('close', () => {
      clearTimeout(delay);
      if (!res.writableFinished) upstreamReq.destroy();
    });

    upstreamReq.on('error', () => {
      forget();
      if (res.destroyed || res.writableEnded) return;
      if (rule?.action === 'drop' || res.headersSent) {
        res.destroy();
      } else {
        res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
        res.end(UNREACHABLE_BODY);
      }
    });

    upstreamReq.on('response', (upstreamRes) => {
      upstreamRes.on('error', ignoreError);
      if (rule?.action === 'drop') {
        // The server has answered: lose the answer.
        upstreamRes.destroy();
        req.socket.destroy();
        return;
      }
      const respond = () => {
        if (res.destroyed) {
          upstreamRes.destroy();
          return;
        }
        if (dead.has(req.socket)) {
          // The line died while the server answered: the answer never arrives.
          upstreamRes.destroy();
          return;
        }
        res.writeHead(
          upstreamRes.statusCode ?? 502,
          upstreamRes.statusMessage,
          endToEndHeaders(upstreamRes.rawHeaders),
        );
        res.flushHeaders(); // a streaming response (SSE) opens before its first chunk
        upstreamRes.pipe(res);
        streaming.set(res, upstreamRes);
        res.on('close', () => streaming.delete(res));
        upstreamRes.on('close', () => {
          streaming.delete(res);
          // The server's side broke off mid-body: break off the browser's too, rather than hang.
          // A dead line tells the browser nothing.
          if (!upstreamRes.complete && !dead.has(req.socket)) res.destroy();
        });
      };
      if (rule?.action === 'slow') delay = setTimeout(respond, rule.delayMs ?? 0);
      else respond();
    });

    req.on('error', ignoreError);
    req.pipe(upstreamReq);
  }

  function forwardUpgrade(
    req: http.IncomingMessage,
    client: net.Socket,
    head: Buffer,
    rule: FaultRule | undefined,
  ) {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    const tunnel: Tunnel = { client, upstream };
    tunnels.add(tunnel);
    let connected = false;
    client.on('close', () => destroyTunnel(tunnel));
    upstream.on('close', () => {
      if (connected) {
        destroyTunnel(tunnel);
      } else {
        // The server could not be reached: the browser gets a 502, then its socket ends.
        tunnels.delete(tunnel);
        if (!client.destroyed) client.end(rawResponse(502, UNREACHABLE_BODY));
      }
    });
    upstream.on('error', ignoreError);

    upstream.on('connect', () => {
      connected = true;
      // The request as the browser sent it: the request line, the raw headers (Connection: Upgrade
      // and all), then whatever the browser sent after its headers before the server answered.
      let lines = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        lines += `${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}\r\n`;
      }
      upstream.write(lines + '\r\n');
      if (head.length > 0) upstream.write(head);
      client.pipe(upstream);

      if (rule?.action === 'drop') {
        upstream.once('data', () => destroyTunnel(tunnel));
      } else if (rule?.action === 'slow') {
        const delay = setTimeout(() => upstream.pipe(client), rule.delayMs ?? 0);
        upstream.on('close', () => clearTimeout(delay));
      } else {
        upstream.pipe(client);
      }
    });
  }

  const server = http.createServer({ requestTimeout: 0 }); // a hung request must not time out

  server.on('connection', (socket: net.Socket) => {
    socket.on('error', ignoreError);
    if (!isOnline) {
      socket.destroy();
      return;
    }
    clientSockets.add(socket);
    socket.on('close', () => clientSockets.delete(socket));
  });

  server.on('request', (req, res) => {
    res.on('error', ignoreError);
    if (isDead(req.socket)) {
      // Into the silence: it never reaches the server, and nothing comes back.
      dead.add(req.socket);
      heard(req.method ?? 'GET', req.url ?? '/', true);
      return;
    }
    const rule = arrive(req.method ?? 'GET', req.url ?? '/');
    switch (rule?.action) {
      case 'hang':
        return; // the socket stays open and nothing is forwarded; offline() or close() ends it
      case 'reset':
        req.socket.destroy();
        return;
      case 'status':
        res.writeHead(rule.status ?? 500, { 'content-type': 'application/json; charset=utf-8' });
        res.end(FAULT_BODY);
        return;
      default:
        forwardHttp(req, res, rule);
    }
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    socket.on('error', ignoreError);
    if (!isOnline) {
      socket.destroy();
      return;
    }
    if (isDead(socket)) {
      dead.add(socket);
      socket.pause();
      heard(req.method ?? 'GET', req.url ?? '/', true);
      return;
    }
    const rule = arrive(req.method ?? 'GET', req.url ?? '/');
    switch (rule?.action) {
      case 'hang':
        return;
      case 'reset':
        socket.destroy();
        return;
      case 'status':
        socket.end(rawResponse(rule.status ?? 500, FAULT_BODY));
        return;
      default:
        forwardUpgrade(req, socket, head, rule);
    }
  });

  server.on('error', ignoreError);

  function killEverything() {
    for (const tunnel of [...tunnels]) destroyTunnel(tunnel);
    for (const upstreamReq of [...upstreamRequests]) upstreamReq.destroy();
    upstreamRequests.clear();
    for (const socket of [...clientSockets]) socket.destroy();
    clientSockets.clear();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    requestLog,

    addRule(rule) {
      const active: ActiveRule = { rule, hits: 0 };
      rules.push(active);
      return {
        remove: () => {
          rules = rules.filter((r) => r !== active);
        },
        get hits() {
          return active.hits;
        },
      };
    },

    clearRules() {
      rules = [];
    },

    offline() {
      isOnline = false;
      killEverything();
    },

    online() {
      isOnline = true;
    },

    get isOnline() {
      return isOnline;
    },

    cutSockets() {
      for (const tunnel of [...tunnels]) destroyTunnel(tunnel);
    },

    silence() {
      silent = true;
      for (const socket of clientSockets) dead.add(socket);
      for (const [res, upstreamRes] of [...streaming]) {
        // A stream under way (a long poll, an event stream) stops carrying anything, unclosed.
        upstreamRes.unpipe(res);
        upstreamRes.destroy();
        streaming.delete(res);
      }
      for (const tunnel of tunnels) {
        tunnel.client.unpipe(tunnel.upstream);
        tunnel.upstream.unpipe(tunnel.client);
        tunnel.client.pause();
        dead.add(tunnel.client);
        // The server's end goes too (a real server would time it out later); the browser is told nothing.
        tunnels.delete(tunnel);
        tunnel.upstream.removeAllListeners('close');
        tunnel.upstream.destroy();
      }
    },

    speak() {
      silent = false;
    },

    get isSilent() {
      return silent;
    },

    get openSockets() {
      return tunnels.size;
    },

    waitForRequest(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const waiter: Waiter = {
          match,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters = waiters.filter((w) => w !== waiter);
            const what = `${match.method ?? 'any method'} ${String(match.path)}`;
            reject(new Error(`fault proxy: no request for ${what} within ${timeoutMs} ms`));
          }, timeoutMs),
        };
        waiters.push(waiter);
      });
    },

    async close() {
      isOnline = false;
      rules = [];
      for (const waiter of waiters) {
        clearTimeout(waiter.timer);
        waiter.reject(new Error('fault proxy: closed'));
      }
      waiters = [];
      killEverything();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
