import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { createTestDatabase, tokenRequest } from '../../../harness/test-server.ts';
import { PRODUCTION_ENV, runServerProcess } from '../../../harness/server-process.ts';
import { bareNginx, rawTokenRequest } from './proxied-requests.ts';

/**
 * Attack: the published demo logins. `kurator / kurator-losenord`, who can read every queued child,
 * was seeded whenever NODE_ENV was not production, whatever address the server listened on. Now
 * the demo is seeded on a loopback HOST only, unless DEMO_SEED=1 asks for it by name; and a server
 * that would offer existing demo logins to other machines refuses to start. A plain `npm start`
 * with a proxy in front (a bare nginx `proxy_pass`, which adds no header) still served them to
 * everyone: now a demo login answers only a request that shows no sign of a proxy.
 */
const databases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((d) => d.drop()));
});

/** The server with exactly the environment given: no DEMO_SEED, HOST or PUBLIC_ORIGIN unless named. */
const run = (env: Record<string, string>) =>
  runServerProcess({ DEMO_SEED: undefined, HOST: undefined, PUBLIC_ORIGIN: undefined, ...env });

const demoLogin = (url: string) =>
  tokenRequest(url, {
    grant_type: 'password',
    client_id: 'portal-staff',
    username: 'kurator',
    password: 'kurator-losenord',
  });

describe('demo logins', () => {
  it('are seeded on loopback by default, off elsewhere unless DEMO_SEED=1 says so', () => {
    expect(loadConfig({}).demoSeed).toBe(true);
    expect(loadConfig({ ...PRODUCTION_ENV }).demoSeed).toBe(false);
    const open = { HOST: '0.0.0.0', PUBLIC_ORIGIN: 'https://stod.example' };
    expect(loadConfig(open).demoSeed).toBe(false);
    expect(loadConfig({ ...open, DEMO_SEED: 'yes' }).demoSeed).toBe(false);
    expect(loadConfig({ ...open, DEMO_SEED: '1' }).demoSeed).toBe(true);
    // Behind a proxy on loopback, others reach it too.
    expect(loadConfig({ PUBLIC_ORIGIN: 'https://stod.example' }).demoSeed).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).demoSeed).toBe(false);
    // Off loopback the site's origin must be named: a request's Host header is not believed.
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/PUBLIC_ORIGIN/);
  });

  it('are not created on a HOST other machines reach, and the start output says so', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const server = await run({
      DATABASE_URL: database.url,
      HOST: '0.0.0.0',
      PUBLIC_ORIGIN: 'https://stod.example',
    });
    try {
      expect(server.exitCode).toBeNull();
      expect(server.output()).toContain('Demo data: off - HOST 0.0.0.0');
      expect(server.output()).not.toContain('kurator-losenord');
      expect((await demoLogin(server.url)).status).toBe(400);
    } finally {
      await server.stop();
    }
  });

  it('already in the database stop a server on such a HOST from starting, unless DEMO_SEED=1', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const local = await run({ DATABASE_URL: database.url });
    expect(local.output()).toContain('kurator-losenord');
    await local.stop();

    const open = { DATABASE_URL: database.url, HOST: '0.0.0.0', PUBLIC_ORIGIN: 'https://stod.example' };
    const refused = await run(open);
    expect(refused.exitCode).toBe(1);
    expect(refused.output()).toMatch(/demo logins.*DEMO_SEED=1/s);

    const explicit = await run({ ...open, DEMO_SEED: '1' });
    try {
      expect(explicit.output()).toContain('WARNING: demo logins');
      expect((await demoLogin(explicit.url)).status).toBe(200);
    } finally {
      await explicit.stop();
    }
    // Three server processes, one after another: each may take ten seconds to start on a busy machine.
  }, 90_000);

  it('are refused to every request a proxy forwards to a plain `npm start`, and the start output says so', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    // `npm start` as it is: loopback, demo data, no TRUST_PROXY; and a proxy on the same machine in
    // front of it (as nginx forwards: the client's address in X-Forwarded-For), reached from outside.
    const server = await run({ DATABASE_URL: database.url });
    const proxy = createServer((req, res) => {
      const target = new URL(req.url ?? '/', server.url);
      const forwarded = request(
        target,
        {
          method: req.method,
          headers: { ...req.headers, host: target.host, 'x-forwarded-for': '203.0.113.50', via: '1.1 nginx' },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      expect(server.output()).toContain('Demo logins answer only requests made to this server directly');
      for (const username of ['kurator', 'admin', 'gruppledare']) {
        const answer = await tokenRequest(proxied, {
          grant_type: 'password',
          client_id: 'portal-staff',
          username,
          password: `${username}-losenord`,
        });
        expect(answer.status).toBe(403);
        expect(answer.body).toMatchObject({
          error: 'invalid_grant',
          error_description: 'demo_login_forwarded',
        });
      }
      const child = await tokenRequest(proxied, {
        grant_type: 'password',
        client_id: 'portal-web',
        username: 'demo',
        password: 'demo-losenord',
      });
      expect(child.status).toBe(403);
      // The same server asked directly on this machine is the demo it is meant to be.
      expect((await demoLogin(server.url)).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      await server.stop();
    }
  }, 60_000);

  it('are refused to a request with any proxy header, HTTP/1.0 or another Host; the client without is let in', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const server = await run({ DATABASE_URL: database.url });
    const kurator = {
      grant_type: 'password',
      client_id: 'portal-staff',
      username: 'kurator',
      password: 'kurator-losenord',
    };
    try {
      const signs: Array<[string, Parameters<typeof rawTokenRequest>[2]]> = [
        ...[
          ['X-Forwarded-For', '203.0.113.50'],
          ['X-Forwarded-Host', 'stod.example'],
          ['X-Forwarded-Proto', 'https'],
          ['X-Real-IP', '203.0.113.50'],
          ['Forwarded', 'for=203.0.113.50'],
          ['Via', '1.1 proxy'],
        ].map(([name, value]): [string, Parameters<typeof rawTokenRequest>[2]] => [
          name!,
          { headers: { [name!]: value! } },
        ]),
        ['HTTP/1.0', { httpVersion: '1.0' }],
        ['Host stod.example', { host: 'stod.example' }],
      ];
      for (const [sign, options] of signs) {
        const answer = await rawTokenRequest(server.url, kurator, options);
        expect({ sign, status: answer.status, error: answer.body.error_description }).toEqual({
          sign,
          status: 403,
          error: 'demo_login_forwarded',
        });
      }
      // The same request with none of them, as a browser on this machine sends it, is the demo.
      expect((await rawTokenRequest(server.url, kurator)).status).toBe(200);
      expect((await demoLogin(server.url)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('are refused through a bare nginx proxy_pass in front of a plain `npm start`', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const server = await run({ DATABASE_URL: database.url });
    const nginx = await bareNginx(server.url);
    try {
      for (const username of ['kurator', 'admin', 'gruppledare']) {
        const answer = await tokenRequest(nginx.url, {
          grant_type: 'password',
          client_id: 'portal-staff',
          username,
          password: `${username}-losenord`,
        });
        expect({ username, status: answer.status }).toEqual({ username, status: 403 });
        expect(answer.body).toMatchObject({ error_description: 'demo_login_forwarded' });
      }
      // Through nginx the site itself still answers; the demo is for this machine, asked directly.
      expect((await fetch(`${nginx.url}/healthz`)).status).toBe(200);
      expect((await demoLogin(server.url)).status).toBe(200);
    } finally {
      await nginx.stop();
      await server.stop();
    }
  }, 60_000);
});
