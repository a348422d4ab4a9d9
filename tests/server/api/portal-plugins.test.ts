import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { login, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { childApi } from '../../../server/portal.ts';
import { staffApi } from '../../../server/staff/staff-api.ts';
import { replyWithError } from '../../../server/error-reply.ts';

/**
 * Authentication is the default of the /portal plugins, not something each route remembers: a route
 * added to the child app's API or the staff API without any option of its own is authenticated,
 * and only a route that says `config: { public: true }` is open. The plugins are mounted here on a
 * bare Fastify with probe routes, so the test is about the plugins alone.
 */
let server: TestServer;
let app: FastifyInstance;
const token: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  token.child = (await login(server.url, 'demo', 'demo-losenord')).access_token;
  token.counsellor = (await login(server.url, 'kurator', 'kurator-losenord', 'portal-staff')).access_token;
  token.admin = (await login(server.url, 'admin', 'admin-losenord', 'portal-staff')).access_token;
  app = Fastify();
  app.decorateRequest('principal', null);
  app.setErrorHandler(replyWithError);
  const probe =
    (path: string, config = {}) =>
    (scope: FastifyInstance) => {
      scope.get(path, { config }, async (req) => ({ accountId: req.principal?.accountId ?? null }));
    };
  await app.register(childApi(server.ctx, [probe('/probe'), probe('/open', { public: true })]), {
    prefix: '/portal',
  });
  await app.register(
    staffApi(server.ctx, { counsellor: [probe('/probe')], group_leader: [], admin: [probe('/admin-probe')] }),
    { prefix: '/portal/staff' },
  );
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await server?.dispose();
});

const status = async (url: string, who?: string) =>
  (
    await app.inject({
      url,
      headers: who ? { authorization: `Bearer ${token[who]}` } : {},
    })
  ).statusCode;

describe('the /portal plugins', () => {
  it('authenticate a route of the child app’s API that does not opt out, and open one that does', async () => {
    expect(await status('/portal/probe')).toBe(401);
    expect(await status('/portal/probe', 'counsellor')).toBe(403);
    expect(await status('/portal/probe', 'child')).toBe(200);
    expect(await status('/portal/open')).toBe(200);
  });

  it('authenticate every staff route with a staff token of the role its group serves', async () => {
    expect(await status('/portal/staff/probe')).toBe(401);
    expect(await status('/portal/staff/probe', 'child')).toBe(403);
    expect(await status('/portal/staff/probe', 'admin')).toBe(403);
    expect(await status('/portal/staff/probe', 'counsellor')).toBe(200);
    expect(await status('/portal/staff/admin-probe', 'counsellor')).toBe(403);
    expect(await status('/portal/staff/admin-probe', 'admin')).toBe(200);
  });
});
