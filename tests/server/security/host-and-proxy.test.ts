import { afterEach, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../harness/test-server.ts';
import { startTarget, tryLogin } from '../../../harness/attack.ts';

/**
 * Attack: lying about where a request comes from. The Host header was believed (so a forged Host
 * put another site into /config.json and token issuers) and proxy trust was hard-coded off (so
 * behind nginx every child shared one address for every per-address limit). Now PUBLIC_ORIGIN
 * names the site, and TRUST_PROXY names the proxies whose X-Forwarded-For is believed.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

const configWithHost = async (url: string, host: string) => {
  // fetch() will not send a forged Host header; node:http will.
  const { request } = await import('node:http');
  const target = new URL('/config.json', url);
  return new Promise<Record<string, string>>((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { Host: host } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(JSON.parse(body) as Record<string, string>));
      },
    );
    req.on('error', reject);
    req.end();
  });
};

describe('the site origin', () => {
  it('is PUBLIC_ORIGIN when set, whatever Host a request names', async () => {
    server = await startTarget({ config: { publicOrigin: 'https://stod.example' } });
    const config = await configWithHost(server.url, 'evil.example');
    expect(config.authUrl).toBe('https://stod.example');
    expect(config.apiUrl).toBe('https://stod.example/portal');
    const discovery = (await (
      await fetch(`${server.url}/.well-known/openid-configuration`, { headers: { Host: 'evil.example' } })
    ).json()) as {
      issuer: string;
    };
    expect(discovery.issuer).toBe('https://stod.example');
  });

  it('ignores a Host that names another machine on a loopback server without PUBLIC_ORIGIN', async () => {
    server = await startTarget();
    const forged = await configWithHost(server.url, 'evil.example');
    expect(forged.authUrl).not.toContain('evil.example');
    const local = await configWithHost(server.url, `localhost:${new URL(server.url).port}`);
    expect(local.authUrl).toBe(`http://localhost:${new URL(server.url).port}`);
  });
});

describe('the client address', () => {
  // The first wait after the free attempts is a minute, not a second: on a busy machine a second
  // can pass between two attempts, and the next one would be allowed for that reason alone.
  const slowPair = { loginPolicy: { pair: { free: 5, baseMs: 60_000, maxMs: 900_000 } } };

  it('comes from X-Forwarded-For only through a trusted proxy', async () => {
    // No TRUST_PROXY: X-Forwarded-For is the client's own claim, so spoofing it escapes nothing.
    server = await startTarget({ config: { trustProxy: [] }, build: slowPair });
    for (let i = 0; i < server.ctx.throttle.policy.pair.free; i++) {
      await tryLogin(server.url, 'demo', 'fel-losenord', `203.0.113.${i + 1}`);
    }
    expect((await tryLogin(server.url, 'demo', 'fel-losenord', '203.0.113.200')).status).toBe(429);
  });

  it('is each child’s own behind the trusted proxy, so one child’s typos do not hold back another', async () => {
    server = await startTarget({ config: { trustProxy: ['127.0.0.1'] }, build: slowPair });
    for (let i = 0; i < server.ctx.throttle.policy.pair.free; i++) {
      await tryLogin(server.url, 'demo', 'fel-losenord', '203.0.113.1');
    }
    expect((await tryLogin(server.url, 'demo', 'fel-losenord', '203.0.113.1')).status).toBe(429);
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', '203.0.113.2')).status).toBe(200);
  });
});

describe('an IPv6 client', () => {
  it('is counted by its /64 network, so fresh addresses of one subscriber do not reset its counters', async () => {
    server = await startTarget();
    const { addressKey } = await import('../../../server/security/client-address.ts');
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('::ffff:203.0.113.5')).toBe('203.0.113.5');
    for (let i = 0; i < server.ctx.throttle.policy.pair.free; i++) {
      await tryLogin(server.url, 'demo', 'fel-losenord', `2001:db8:1:2::${i + 1}`);
    }
    expect((await tryLogin(server.url, 'demo', 'fel-losenord', '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await tryLogin(server.url, 'demo', 'demo-losenord', '2001:db8:9:9::1')).status).toBe(200);
  });
});
