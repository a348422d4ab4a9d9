import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseErrorKind, PoolStats } from './db/database.ts';
import type { HubObserver, TransportKind } from './hub/types.ts';

/** A loopback address: IPv4, IPv6 and IPv4-mapped. */
const isLoopbackAddress = (ip: string) => /^(127\.|::ffff:127\.)/.test(ip) || ip === '::1';

/**
 * Headers a proxy adds (nginx, Apache, HAProxy, CDNs): a request that carries any of them came
 * through one, from someone the proxy stands for. Every `X-Forwarded-*` header counts too.
 */
const PROXY_HEADERS = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'x-cluster-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-original-forwarded-for',
]);
const isProxyHeader = (name: string) => PROXY_HEADERS.has(name) || name.startsWith('x-forwarded-');

function bearerMatches(req: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * prom-client's process metrics (event-loop lag, heap, GC, handles, CPU, memory) describe the
 * process, not one app: they are collected once per process into a registry of their own, however
 * many apps a test process builds, and merged into each app's answer.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** What the app reads at scrape time: hub connections and the database pool. */
export interface MetricsSources {
  hubConnections(): number;
  hubConnectionsByTransport(): Record<TransportKind, number>;
  hubSubscriptions(): number;
  databasePool(): PoolStats | null;
}

const LOGIN_KINDS = ['password', 'personal_code'] as const;
export type LoginKind = (typeof LOGIN_KINDS)[number];

/** Delivery latencies (publish to written to the connection) are milliseconds, not seconds. */
const DELIVERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * /metrics in Prometheus text, through prom-client: the process metrics plus what a site running
 * this service watches - hub connections per transport, events delivered and how long they took,
 * the retries clients make (429, 5xx, idempotent replays), the database pool and its errors, and
 * the Redis backplane's reconnects. Routes are labelled by their template, never the raw URL (ids).
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly retrySignals: Counter<'kind'>;
  private readonly delivered: Counter;
  private readonly deliveryLatency: Histogram;
  private readonly databaseErrors: Counter<'kind'>;
  private readonly backplaneReconnects: Counter;
  private readonly backplaneUp: Gauge;
  private readonly loginFailures: Counter<'kind'>;
  private readonly hubInvocations: Counter<'outcome'>;
  private readonly hubRefusedSubscriptions: Counter<'reason'>;
  private readonly hubFloodingClosed: Counter;

  constructor(
    sources: MetricsSources,
    private readonly access: { token?: string | undefined },
  ) {
    const registers = [this.registry];
    new Gauge({
      name: 'hub_connections',
      help: 'Open hub connections in this process, all transports.',
      registers,
      collect() {
        this.set(sources.hubConnections());
      },
    });
    new Gauge({
      name: 'hub_transport_connections',
      help: 'Open hub connections in this process by transport.',
      labelNames: ['transport'],
      registers,
      collect() {
        for (const [transport, count] of Object.entries(sources.hubConnectionsByTransport())) {
          this.set({ transport }, count);
        }
      },
    });
    new Gauge({
      name: 'hub_subscriptions',
      help: 'Entity subscriptions held by hub connections of this process.',
      registers,
      collect() {
        this.set(sources.hubSubscriptions());
      },
    });
    this.delivered = new Counter({
      name: 'hub_events_delivered_total',
      help: 'Hub events written to a connection of this process (one per connection reached).',
      registers,
    });
    this.deliveryLatency = new Histogram({
      name: 'hub_event_delivery_seconds',
      help: 'From an event published (any process) to its delivery to this process’s connections.',
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.backplaneReconnects = new Counter({
      name: 'hub_backplane_reconnects_total',
      help: 'Times a Redis backplane connection came back after it was lost.',
      registers,
    });
    this.backplaneUp = new Gauge({
      name: 'hub_backplane_up',
      help: '1 while the Redis backplane is connected (or none is used), 0 while it is lost.',
      registers,
    });
    this.backplaneUp.set(1);
    // A connection's budget (server/hub/connection.ts): what was served and what was refused past it.
    this.hubInvocations = new Counter({
      name: 'hub_invocations_total',
      help: 'Hub invocations of clients by outcome: served within the connection’s budget, or throttled past it.',
      labelNames: ['outcome'],
      registers,
    });
    for (const outcome of ['served', 'throttled']) this.hubInvocations.inc({ outcome }, 0);
    this.hubRefusedSubscriptions = new Counter({
      name: 'hub_subscriptions_refused_total',
      help: 'SubscribeToEntity refused: no access (forbidden), over a connection’s limit (limit), past its budget (throttled).',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of ['forbidden', 'limit', 'throttled']) this.hubRefusedSubscriptions.inc({ reason }, 0);
    this.hubFloodingClosed = new Counter({
      name: 'hub_connections_closed_flooding_total',
      help: 'Hub connections closed for invoking on past their budget.',
      registers,
    });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method and route.',
      labelNames: ['method', 'route'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.retrySignals = new Counter({
      name: 'http_retry_signals_total',
      help: 'Answers that make a client retry (rate_limited 429, server_error 5xx) and retries answered from the idempotency store (idempotent_replay).',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of ['rate_limited', 'server_error', 'idempotent_replay'])
      this.retrySignals.inc({ kind }, 0);
    this.databaseErrors = new Counter({
      name: 'db_errors_total',
      help: 'Failed database statements (query) and pooled connections that broke while idle (connection).',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of ['query', 'connection']) this.databaseErrors.inc({ kind }, 0);
    // The operator's alert on guessing: personal codes have no site-wide refusal (it kept every
    // participant out), so a flood of wrong codes from many addresses shows here instead.
    this.loginFailures = new Counter({
      name: 'login_failures_total',
      help: 'Token requests refused for wrong credentials, by kind (password, personal_code).',
      labelNames: ['kind'],
      registers,
    });
    for (const kind of LOGIN_KINDS) this.loginFailures.inc({ kind }, 0);
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting = queries waiting for one).',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = sources.databasePool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  /** What the hub reports: deliveries and the backplane's health. */
  readonly hubObserver: HubObserver = {
    delivered: (connections, publishedAt) => {
      if (connections === 0) return;
      this.delivered.inc(connections);
      if (typeof publishedAt === 'number' && Number.isFinite(publishedAt)) {
        this.deliveryLatency.observe(Math.max(0, Date.now() - publishedAt) / 1000);
      }
    },
    backplaneLost: () => this.backplaneUp.set(0),
    backplaneRecovered: () => {
      this.backplaneUp.set(1);
      this.backplaneReconnects.inc();
    },
    invocation: (outcome) => this.hubInvocations.inc({ outcome }),
    subscriptionRefused: (reason) => this.hubRefusedSubscriptions.inc({ reason }),
    connectionFlooding: () => this.hubFloodingClosed.inc(),
  };

  loginFailed(kind: LoginKind): void {
    this.loginFailures.inc({ kind });
  }

  databaseError(kind: DatabaseErrorKind): void {
    this.databaseErrors.inc({ kind });
  }

  /**
   * The machine itself: a loopback peer that forwards for nobody. Whatever the headers say, a
   * request through a proxy is not the machine: a proxy on the same machine (nginx in front of the
   * process) is a loopback peer for everyone it serves, whether it says so in X-Forwarded-For,
   * Forwarded, X-Real-IP or Via, and whether or not TRUST_PROXY names it. Only the socket's own
   * address counts, never one resolved from a header. (A proxy that adds none of these headers
   * cannot be told from the machine: deploy/nginx.conf answers /metrics 404 itself.)
   */
  private fromThisMachine(req: FastifyRequest): boolean {
    const peer = req.socket.remoteAddress ?? '';
    if (!isLoopbackAddress(peer)) return false;
    if (Object.keys(req.headers).some(isProxyHeader)) return false;
    // A trusted proxy in front resolved the client's address from it.
    return req.ip === peer;
  }

  observe(method: string, route: string, status: number, seconds: number, replayed: boolean) {
    this.requests.inc({ method, route, status: String(status) });
    this.durations.observe({ method, route }, seconds);
    if (status === 429) this.retrySignals.inc({ kind: 'rate_limited' });
    else if (status >= 500) this.retrySignals.inc({ kind: 'server_error' });
    if (replayed) this.retrySignals.inc({ kind: 'idempotent_replay' });
  }

  async render(): Promise<{ contentType: string; text: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, text: await merged.metrics() };
  }

  register(app: FastifyInstance) {
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      if (route === '/metrics') return;
      const replayed = reply.getHeader('idempotent-replayed') === 'true';
      this.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000, replayed);
    });
    // Route names, counts and memory say much about a site: only to the machine itself or a token.
    app.get('/metrics', async (req, reply) => {
      if (!this.fromThisMachine(req) && !bearerMatches(req, this.access.token)) {
        return reply.code(403).send({ error: 'forbidden', message: 'Åtkomst nekad.' });
      }
      const { contentType, text } = await this.render();
      reply.header('Cache-Control', 'no-store').type(contentType);
      return text;
    });
  }
}
