import type { FastifyRequest } from 'fastify';
import { isLoopbackHost, type ServerConfig } from '../config.ts';

/**
 * Who may sign in with a demo login (published passwords: a counsellor who can read every queued
 * child, an administrator). The demo of `npm start` is for a browser on the same machine, asking
 * the server directly. A proxy in front of it (nginx on the same machine) makes every outside
 * client look like this machine, so a request that shows any sign of having come through one is
 * refused a demo login (docs/security.md):
 *
 * - a proxy's header: X-Forwarded-For, X-Forwarded-Host, X-Forwarded-Proto, X-Real-IP, Forwarded, Via;
 * - on a server only this machine reaches (loopback HOST, no PUBLIC_ORIGIN or TRUST_PROXY), also a
 *   peer that is not a loopback address, HTTP/1.0 (what nginx's bare `proxy_pass` speaks, adding
 *   no header at all; no browser does), or a Host header that is no loopback name (a proxy that
 *   passes the site's own).
 *
 * The one exception is a demo asked for by name behind a proxy that is named too (DEMO_SEED=1 and
 * TRUST_PROXY, as `npm run cluster` runs the chaos run's): reachable through it on purpose.
 */

/** The error_description of a demo login refused to a request that came through a proxy. */
export const DEMO_LOGIN_FORWARDED = 'demo_login_forwarded';

const PROXY_HEADERS = [
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'forwarded',
  'via',
];

/** Whether a demo login must be refused to this request, whatever its password. */
export function demoLoginRefused(config: ServerConfig, req: FastifyRequest): boolean {
  if (config.demoSeedExplicit && config.trustProxy.length > 0) return false;
  if (PROXY_HEADERS.some((h) => req.headers[h] !== undefined)) return true;
  // DEMO_SEED=1 on a HOST others reach: other machines are its clients on purpose.
  if (config.exposed) return false;
  const raw = req.raw;
  const http10 = raw.httpVersionMajor < 1 || (raw.httpVersionMajor === 1 && raw.httpVersionMinor < 1);
  return !isLoopbackAddress(raw.socket.remoteAddress) || http10 || !isLoopbackHost(req.hostname);
}

/** 127.0.0.0/8 or ::1, also as an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`). */
function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
