import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A page the tossing site serves, and the value it plants. */
export interface TossingPage {
  /** The page's address: the app's host (127.0.0.1), another port. */
  url: string;
  /** The value planted: the shape the server issues, so nothing tells it from one of its own. */
  value: string;
  close(): Promise<void>;
}

/**
 * Another app on the app's own host (cookies know no ports: what 127.0.0.1:any sets, every port of
 * 127.0.0.1 gets), as a sibling subdomain or an injected plain-http answer would be: its page
 * plants `name` with `Path=path` by a Set-Cookie of its own answer, for a day. A real HTTP server,
 * not a route of the test's browser: the browser takes the cookie as it would from any site.
 */
export async function startTossingPage(options: { name: string; path: string }): Promise<TossingPage> {
  const value = randomBytes(32).toString('base64url');
  const server = http.createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Set-Cookie': `${options.name}=${value}; Path=${options.path}; Max-Age=86400; SameSite=Lax`,
    });
    res.end('<!doctype html><title>Spel</title><h1>Dagens spel</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    value,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
