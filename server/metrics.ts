import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Loopback as seen after proxy resolution (TRUST_PROXY), IPv4, IPv6 and IPv4-mapped. */
const isLoopbackAddress = (ip: string) => /^(127\.|::ffff:127\.)/.test(ip) || ip === '::1';

function bearerMatches(req: FastifyRequest, token: string | undefined): boolean {
  if (!token) return false;
  const given = Buffer.from(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Series {
  count: number;
  sum: number;
  buckets: number[];
}

/**
 * Prometheus text for /metrics: hub connections plus request counts and durations per route. Small
 * enough to write by hand, and it keeps the route template (never the raw URL, which may hold ids).
 */
export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly durations = new Map<string, Series>();

  constructor(
    private readonly hubConnections: () => number,
    private readonly access: { token?: string | undefined; trustsProxy: boolean },
  ) {}

  /**
   * The machine itself: a loopback peer (after TRUST_PROXY resolution). A loopback peer that
   * forwards for someone is a proxy nobody named in TRUST_PROXY, so its clients are not trusted.
   */
  private fromThisMachine(req: FastifyRequest): boolean {
    if (!isLoopbackAddress(req.ip)) return false;
    return this.access.trustsProxy || req.headers['x-forwarded-for'] === undefined;
  }

  observe(method: string, route: string, status: number, seconds: number) {
    const key = `method="${method}",route="${route}",status="${status}"`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const dkey = `method="${method}",route="${route}"`;
    const s = this.durations.get(dkey) ?? { count: 0, sum: 0, buckets: BUCKETS.map(() => 0) };
    s.count += 1;
    s.sum += seconds;
    BUCKETS.forEach((b, i) => {
      if (seconds <= b) s.buckets[i]! += 1;
    });
    this.durations.set(dkey, s);
  }

  render(): string {
    const lines = [
      '# HELP hub_connections Open hub connections in this process, all transports.',
      '# TYPE hub_connections gauge',
      `hub_connections ${this.hubConnections()}`,
      '# HELP process_resident_memory_bytes Resident memory of this process.',
      '# TYPE process_resident_memory_bytes gauge',
      `process_resident_memory_bytes ${process.memoryUsage.rss()}`,
      '# HELP nodejs_heap_used_bytes V8 heap in use.',
      '# TYPE nodejs_heap_used_bytes gauge',
      `nodejs_heap_used_bytes ${process.memoryUsage().heapUsed}`,
      '# HELP http_requests_total HTTP requests by method, route and status.',
      '# TYPE http_requests_total counter',
      ...[...this.requests].map(([k, v]) => `http_requests_total{${k}} ${v}`),
      '# HELP http_request_duration_seconds HTTP request duration by method and route.',
      '# TYPE http_request_duration_seconds histogram',
    ];
    for (const [k, s] of this.durations) {
      BUCKETS.forEach((b, i) =>
        lines.push(`http_request_duration_seconds_bucket{${k},le="${b}"} ${s.buckets[i]}`),
      );
      lines.push(`http_request_duration_seconds_bucket{${k},le="+Inf"} ${s.count}`);
      lines.push(`http_request_duration_seconds_sum{${k}} ${s.sum}`);
      lines.push(`http_request_duration_seconds_count{${k}} ${s.count}`);
    }
    return lines.join('\n') + '\n';
  }

  register(app: FastifyInstance) {
    app.addHook('onResponse', async (req, reply) => {
      const route = req.routeOptions.url ?? 'unmatched';
      if (route === '/metrics') return;
      this.observe(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });
    // Route names, counts and memory say much about a site: only to the machine itself or a token.
    app.get('/metrics', async (req, reply) => {
      if (!this.fromThisMachine(req) && !bearerMatches(req, this.access.token)) {
        return reply.code(403).send({ error: 'forbidden', message: 'Åtkomst nekad.' });
      }
      reply.type('text/plain; version=0.0.4');
      return this.render();
    });
  }
}
