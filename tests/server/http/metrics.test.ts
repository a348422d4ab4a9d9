import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { HttpTransportType, HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { api, login, postWithKey, startTestServer, type TestServer } from '../../../harness/test-server.ts';
import { parseMetrics } from '../../../harness/metrics-text.ts';

/**
 * /metrics as a site's Prometheus reads it (prom-client): the process metrics, and what this service
 * adds - hub connections per transport, events delivered and their latency, the answers that make
 * the outbox retry, and the database's errors - each moved by the real thing it counts.
 */
let server: TestServer;
let token: string;
const open: HubConnection[] = [];
beforeAll(async () => {
  server = await startTestServer({ build: { hub: { maxConnectionsPerAccount: 2 } } });
  token = (await login(server.url, 'demo', 'demo-losenord')).access_token;
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.stop()));
  await server.dispose();
});

async function scrape(): Promise<string> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

/** The value of one series (name with its labels exactly as printed), or undefined. */
const value = (text: string, series: string) => parseMetrics(text).get(series);

function connect(transport: HttpTransportType) {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hubs/portalaccountevents`, { transport, accessTokenFactory: () => token })
    .configureLogging(LogLevel.None)
    .build();
  open.push(connection);
  return connection;
}

const postLog = (key: string) =>
  postWithKey(server.url, '/portal/createclientlogs', { token, key, body: { message: 'metrics-replay' } });

describe('/metrics through prom-client', () => {
  it('serves the process metrics: event-loop lag, heap, GC, handles', async () => {
    const text = await scrape();
    for (const name of [
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_active_handles_total',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ]) {
      expect(value(text, name), name).toBeGreaterThanOrEqual(0);
    }
    expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
  });

  it('counts hub connections per transport, and events delivered with their latency', async () => {
    const before = await scrape();
    const deliveredBefore = value(before, 'hub_events_delivered_total') ?? 0;
    const ws = connect(HttpTransportType.WebSockets);
    const lp = connect(HttpTransportType.LongPolling);
    await Promise.all([ws.start(), lp.start()]);
    const detail = await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/detail', {
      token,
    });
    const id = (detail.body as { info: { contact: { id: number } } }).info.contact.id;
    await Promise.all([ws, lp].map((c) => c.invoke('SubscribeToEntity', `Contact:${id}`)));
    const heard = [ws, lp].map((c) => new Promise<void>((resolve) => c.on('SendEvent', () => resolve())));
    await api(server.url, '/portal/features/contacts/contactsapplicationfeature-id/update', {
      token,
      body: { name: 'Solen' },
    });
    await Promise.all(heard);

    const text = await scrape();
    expect(value(text, 'hub_connections')).toBe(2);
    expect(value(text, 'hub_subscriptions')).toBe(2);
    expect(value(text, 'hub_transport_connections{transport="WebSockets"}')).toBe(1);
    expect(value(text, 'hub_transport_connections{transport="LongPolling"}')).toBe(1);
    expect(value(text, 'hub_events_delivered_total')).toBeGreaterThanOrEqual(deliveredBefore + 2);
    expect(value(text, 'hub_event_delivery_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'hub_backplane_up')).toBe(1);

    // A third connection is over this test server's limit of 2 per account: a 429 the client retries.
    const third = connect(HttpTransportType.WebSockets);
    await expect(third.start()).rejects.toThrow();
    expect(value(await scrape(), 'http_retry_signals_total{kind="rate_limited"}')).toBeGreaterThanOrEqual(1);
  });

  it('counts an idempotent replay, the way the outbox retries a create call', async () => {
    const before = value(await scrape(), 'http_retry_signals_total{kind="idempotent_replay"}');
    expect(before).toBe(0);
    const key = randomUUID();
    expect((await postLog(key)).status).toBe(201);
    expect(value(await scrape(), 'http_retry_signals_total{kind="idempotent_replay"}')).toBe(0);
    const again = await postLog(key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(value(await scrape(), 'http_retry_signals_total{kind="idempotent_replay"}')).toBe(1);
  });

  it('counts a failed statement and the 500 it answered, by route template and never by id', async () => {
    const text = await scrape();
    expect(value(text, 'db_errors_total{kind="query"}')).toBe(0);
    expect(value(text, 'http_retry_signals_total{kind="server_error"}')).toBe(0);
    // The table behind the notification list is gone from under the running server.
    await sql`DROP TABLE notifications`.execute(server.ctx.db);
    const res = await api(server.url, '/portal/api/notifications', { token });
    expect(res.status).toBe(500);
    const after = await scrape();
    expect(value(after, 'db_errors_total{kind="query"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'http_retry_signals_total{kind="server_error"}')).toBe(1);
    expect(after).toMatch(
      /http_requests_total\{method="GET",route="\/portal\/api\/notifications",status="500"\} 1/,
    );
    expect(after).not.toMatch(/route="[^"]*\/\d+/);
  });
});
