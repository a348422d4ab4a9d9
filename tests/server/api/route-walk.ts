import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered route as Fastify knows it: the method and the path template (`/x/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** The route's declared schema (body, querystring, params), if any. */
  schema?: Record<string, unknown>;
}

export const routeKey = (r: RegisteredRoute) => `${r.method} ${r.url}`;

/**
 * Runs `start` and records every route any Fastify instance created meanwhile registers. Fastify
 * publishes each new instance on the `fastify.initialization` diagnostics channel before any plugin
 * runs, so an `onRoute` hook added there sees every route of buildApp, including those of
 * encapsulated plugins - without buildApp having to expose anything for tests.
 */
export async function captureRoutes<T>(
  start: () => Promise<T>,
): Promise<{ result: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = [];
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (opts: RouteOptions) => {
      for (const method of [opts.method].flat())
        routes.push({
          method: String(method),
          url: opts.url,
          schema: opts.schema as Record<string, unknown> | undefined,
        });
    });
  };
  subscribe('fastify.initialization', onInit);
  try {
    const result = await start();
    return { result, routes: withoutImplicitHead(routes) };
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
}

/** Fastify adds a HEAD route for every GET route; it runs the same handler, so the GET covers it. */
function withoutImplicitHead(routes: RegisteredRoute[]): RegisteredRoute[] {
  const keys = new Set(routes.map(routeKey));
  const unique = [...new Map(routes.map((r) => [routeKey(r), r])).values()];
  return unique.filter((r) => r.method !== 'HEAD' || !keys.has(`GET ${r.url}`));
}

/** A request of the walk: the route's path with its parameters filled, and at most one body. */
export interface Call {
  path: string;
  json?: unknown;
  form?: FormData;
  /** application/x-www-form-urlencoded, as the OAuth endpoints take it. */
  urlencoded?: Record<string, string>;
  text?: string;
}

export interface Answer {
  status: number;
  body: string;
}

/** Sends `call` as `method`, with a bearer token when given and the variant header unless null. */
export async function send(
  baseUrl: string,
  method: string,
  call: Call,
  token: string | undefined,
  variant: string | null,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (variant !== null) headers['X-App-Variant'] = variant;
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (call.form) body = call.form;
  else if (call.urlencoded) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.urlencoded).toString();
  } else if (call.text !== undefined) {
    headers['Content-Type'] = 'text/plain';
    body = call.text;
  } else if (call.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(call.json);
  }
  const res = await fetch(`${baseUrl}${call.path}`, { method, headers, body });
  // Downloads are binary; the secrets searched for are ASCII, which survives decoding either way.
  return { status: res.status, body: await res.text() };
}

/** Fills `:name` segments of a route template from `params` (encoded), '1' for anything unknown. */
export function fillTemplate(url: string, params: Record<string, string | number> = {}): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    encodeURIComponent(String(params[name] ?? '1')),
  );
}

/** The secrets of `secrets` that appear in `body`. */
export const leaked = (body: string, secrets: readonly string[]) => secrets.filter((s) => body.includes(s));

/** A compact description of an answer for a failure list. */
export const summary = (a: Answer) => `${a.status} ${a.body.slice(0, 160)}`;
