import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTransportType, HubConnectionState, type HubConnection } from '@microsoft/signalr';
import { buildHubConnection } from '../../client-kit/hub/build-hub-connection.ts';
import { freeClusterPort, startCluster, type Cluster } from '../../harness/cluster/cluster.ts';
import { api, createTestDatabase, LOCAL_POSTGRES_URL, login } from '../../harness/test-server.ts';
import { callFrom } from '../../harness/attack.ts';
import { loadConfig } from '../../server/config.ts';
import { readMetrics } from '../../harness/metrics-text.ts';

/**
 * `npm run cluster` as a site runs it: two server processes on PostgreSQL and Redis behind Debian's
 * nginx with deploy/nginx.conf, driven through nginx by the official SignalR client.
 */
let cluster: Cluster;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const open: HubConnection[] = [];
const output: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase(LOCAL_POSTGRES_URL);
  // Ports side by side for nginx and its two processes; another run may hold some, so try again.
  for (let attempt = 0; ; attempt++) {
    try {
      cluster = await startCluster({
        processes: 2,
        port: await freeClusterPort(2),
        databaseUrl: database.url,
        redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
        clientDir: '/nonexistent-client',
        demoSeed: true,
        env: { REGISTRATIONS_PER_ADDRESS: '3' },
        log: (line) => output.push(line),
      });
      break;
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('is taken')) throw error;
    }
  }
}, 60_000);
afterAll(async () => {
  await Promise.all(open.map((c) => c.stop()));
  await cluster?.stop();
  await database?.drop();
}, 60_000);

const DETAIL = '/portal/features/contacts/contactsapplicationfeature-id/detail';
const UPDATE = '/portal/features/contacts/contactsapplicationfeature-id/update';

async function signIn() {
  const { access_token } = await login(cluster.url, 'demo', 'demo-losenord');
  const detail = await api(cluster.url, DETAIL, { token: access_token });
  return {
    token: access_token,
    contactId: (detail.body as { info: { contact: { id: number } } }).info.contact.id,
  };
}

function connect(token: string, transport: HttpTransportType): HubConnection {
  const connection = buildHubConnection({
    signalHubUrl: cluster.url,
    accessToken: async () => token,
    transport,
  });
  open.push(connection);
  return connection;
}

const nextEvent = (connection: HubConnection, name: string) =>
  new Promise<string>((resolve) => {
    connection.on('SendEvent', (eventName: string, _data: unknown, entityKey: string) => {
      if (eventName === name) resolve(entityKey);
    });
  });

async function negotiatedNode(token: string): Promise<string> {
  const res = await fetch(`${cluster.url}/hubs/portalaccountevents/negotiate?negotiateVersion=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { connectionToken: string };
  return body.connectionToken.split('.')[0]!;
}

describe('npm run cluster: two processes behind nginx', () => {
  it('spreads negotiates over both processes, each naming itself in its connection tokens', async () => {
    const { token } = await signIn();
    const nodes = new Set<string>();
    for (let i = 0; i < 6; i++) nodes.add(await negotiatedNode(token));
    expect([...nodes].sort()).toEqual(['n1', 'n2']);
  });

  it.each([
    ['LongPolling', HttpTransportType.LongPolling],
    ['WebSockets', HttpTransportType.WebSockets],
  ])(
    'keeps a %s connection on its process, and delivers what the other process publishes',
    async (_n, transport) => {
      const { token, contactId } = await signIn();
      const connection = connect(token, transport);
      await connection.start();
      // Every invocation is a request of its own over long polling: each must reach the same process.
      for (let i = 0; i < 6; i++) await connection.invoke('SubscribeToEntity', `Contact:${contactId}`);
      for (let round = 0; round < 4; round++) {
        const heard = nextEvent(connection, 'Contact.Updated');
        // Through nginx round robin: the update is made by either process.
        expect((await api(cluster.url, UPDATE, { token, body: { name: 'Solen' } })).status).toBe(200);
        expect(await heard).toBe(`Contact:${contactId}`);
      }
      expect(connection.state).toBe(HubConnectionState.Connected);
      await connection.stop();
    },
  );

  it('believes the address nginx saw, not the X-Forwarded-For a client sends', async () => {
    const register = (i: number, address: string, url = cluster.url) =>
      callFrom(url, '/portal/api/accounts/registercontact', {
        address,
        body: {
          username: `kluster-${i}-${Date.now() % 100000}`,
          password: `Blå-Ballong-${i}-x`,
          properties: {},
        },
      });
    // A different claimed address each time, through nginx: all are this machine's, 3 allowed.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await register(i, `203.0.113.${i + 1}`)).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    // A process asked directly by this machine (the trusted proxy's address) believes what it forwards.
    expect((await register(9, '198.51.100.7', cluster.nodes[0]!.url)).status).toBe(201);
  });

  it('names the site itself, whatever X-Forwarded-Host a client sends through nginx', async () => {
    // A loopback host, which a process without PUBLIC_ORIGIN would have taken for its own.
    const headers = { 'X-Forwarded-Host': '127.0.0.9:4444' };
    const discovery = (await (
      await fetch(`${cluster.url}/.well-known/openid-configuration`, { headers })
    ).json()) as { issuer: string; token_endpoint: string };
    expect(discovery.issuer).toBe(cluster.url);
    expect(discovery.token_endpoint).toBe(`${cluster.url}/connect/token`);
    const config = (await (await fetch(`${cluster.url}/config.json`, { headers })).json()) as Record<
      string,
      unknown
    >;
    expect(JSON.stringify(config)).not.toContain('127.0.0.9');
  });

  it('keeps /metrics off the public address; each process serves its own', async () => {
    expect((await fetch(`${cluster.url}/metrics`)).status).toBe(404);
    for (const node of cluster.nodes) {
      expect(await (await fetch(`${node.url}/metrics`)).text()).toMatch(/^hub_connections \d+$/m);
    }
  });

  it('brings a client back through nginx after its process is killed (-9) and after one drains (SIGTERM)', async () => {
    const { token, contactId } = await signIn();
    for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
      const connection = connect(token, HttpTransportType.WebSockets);
      await connection.start();
      await connection.invoke('SubscribeToEntity', `Contact:${contactId}`);
      const counts = await Promise.all(
        cluster.nodes.map(async (node) => (await readMetrics(node.url)).get('hub_connections') ?? 0),
      );
      const holder = counts.findIndex((n) => n > 0);
      expect(holder).toBeGreaterThanOrEqual(0);
      const reconnected = new Promise<void>((resolve) => connection.onreconnected(() => resolve()));
      await cluster.kill(holder, signal);
      await reconnected;
      // The worker resubscribes after a reconnect; so does this client, on the process that took it.
      await connection.invoke('SubscribeToEntity', `Contact:${contactId}`);
      const heard = nextEvent(connection, 'Contact.Updated');
      expect((await api(cluster.url, UPDATE, { token, body: { name: 'Solen' } })).status).toBe(200);
      expect(await heard).toBe(`Contact:${contactId}`);
      await cluster.start(holder);
      await connection.stop();
    }
    const drained = output.filter((line) => line.includes('SIGTERM: stopping'));
    expect(drained).toHaveLength(1);
  }, 60_000);

  it('serves on while nginx reloads its config', async () => {
    const { token } = await signIn();
    const during = Promise.all(
      Array.from({ length: 20 }, () => api(cluster.url, DETAIL, { token }).then((r) => r.status)),
    );
    await cluster.reloadNginx();
    expect(new Set(await during)).toEqual(new Set([200]));
    expect((await api(cluster.url, DETAIL, { token })).status).toBe(200);
  });
});

describe('NODE_ID', () => {
  it('takes letters and digits only: the proxy matches a token up to its first dot', () => {
    expect(loadConfig({ NODE_ID: 'n12' }).nodeId).toBe('n12');
    expect(loadConfig({}).nodeId).toBeUndefined();
    for (const bad of ['n1.x', 'n 1', 'n1/..', 'x'.repeat(17)]) {
      expect(() => loadConfig({ NODE_ID: bad }), bad).toThrow(/NODE_ID/);
    }
  });
});
