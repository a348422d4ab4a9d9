import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../harness/test-server.ts';

/**
 * Attack: reading /metrics through a proxy on the server's own machine. The check took a loopback
 * peer for the machine itself unless it sent X-Forwarded-For, so nginx (or any proxy) in front of
 * a plain `npm start` that says who it forwards for only in Forwarded, X-Real-IP or Via handed the
 * site's route names, counts and memory to anyone; and behind a trusted proxy, a client that wrote
 * `X-Forwarded-For: 127.0.0.1` was believed to be the machine. Now a request that came through a
 * proxy (any of its headers, or an address resolved from one) is never the machine: without the
 * bearer METRICS_TOKEN it is refused, whatever its headers say.
 */
const TOKEN = 'skrapnyckel-0123456789';
/** What a proxy on the same machine sends, each alone, claiming the machine itself where it can. */
const PROXIED: Array<Record<string, string>> = [
  { 'X-Forwarded-For': '127.0.0.1' },
  { Forwarded: 'for=127.0.0.1;proto=http' },
  { Forwarded: 'for="[::1]"' },
  { 'X-Real-IP': '127.0.0.1' },
  { Via: '1.1 nginx' },
  { 'X-Forwarded-Host': '127.0.0.1' },
  { 'X-Forwarded-Proto': 'http' },
];

let direct: TestServer;
let behindTrustedProxy: TestServer;
beforeAll(async () => {
  // A loopback server nobody said is behind a proxy, and one whose TRUST_PROXY names 127.0.0.1.
  direct = await startTestServer({ config: { metricsToken: TOKEN } });
  behindTrustedProxy = await startTestServer({ config: { metricsToken: TOKEN, trustProxy: ['127.0.0.1'] } });
});
afterAll(async () => {
  await direct?.dispose();
  await behindTrustedProxy?.dispose();
});

const scrape = (server: TestServer, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/metrics`, { headers });

describe.each([
  ['a loopback server', () => direct],
  ['a server behind a trusted proxy', () => behindTrustedProxy],
])('/metrics of %s', (_, server) => {
  it.each(PROXIED.map((headers) => [Object.keys(headers)[0]!, headers] as const))(
    'refuses a request through a proxy (%s) without the token',
    async (_header, headers) => {
      const res = await scrape(server(), headers);
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain('hub_connections');
    },
  );

  it.each(PROXIED.map((headers) => [Object.keys(headers)[0]!, headers] as const))(
    'answers a request through a proxy (%s) with the token, and only the right one',
    async (_header, headers) => {
      const res = await scrape(server(), { ...headers, Authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^hub_connections \d+$/m);
      expect((await scrape(server(), { ...headers, Authorization: `Bearer ${TOKEN}x` })).status).toBe(403);
    },
  );

  it('answers a plain scrape from the machine itself', async () => {
    const res = await scrape(server());
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^hub_connections \d+$/m);
  });
});
