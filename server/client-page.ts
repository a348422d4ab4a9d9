import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ServerConfig } from './config.ts';
import { ApiError } from './errors.ts';
import { fillQuickExitUrl } from '../contract/first-screen.ts';
import { chooseEncoding } from './http/compression.ts';

/**
 * The child app's index.html as this server hands it out: the first HTML carries 'Lämna sidan' as
 * a plain link (it works before any script), and this fills in the configured neutral page
 * (QUICK_EXIT_URL) instead of the build's default. Made once at start, with its brotli and gzip
 * copies (the build's own precompressed copies hold the default address).
 */
export function clientPage(indexFile: string, quickExitUrl: string) {
  const html = Buffer.from(fillQuickExitUrl(fs.readFileSync(indexFile, 'utf8'), quickExitUrl));
  const encoded = {
    br: zlib.brotliCompressSync(html, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY },
    }),
    gzip: zlib.gzipSync(html, { level: zlib.constants.Z_BEST_COMPRESSION }),
  };
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;
  return (req: FastifyRequest, reply: FastifyReply) => {
    const encoding = chooseEncoding(req.headers['accept-encoding']);
    reply.header('Cache-Control', 'no-cache').header('Vary', 'Accept-Encoding').header('ETag', etag);
    // Revalidated on every use (no-cache): unchanged, it is not sent again.
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    reply.type('text/html; charset=utf-8');
    if (!encoding) return reply.send(html);
    return reply.header('Content-Encoding', encoding).send(encoded[encoding]);
  };
}

const SERVER_PREFIXES = ['/portal/', '/connect/', '/hubs/', '/.well-known/'];

/**
 * A built file's caching, by its path in dist/: the hashed files under assets/ never change under
 * their name, so they are kept for a year without asking again; everything else (the pages, sw.js,
 * the manifest, the icons) is revalidated on every use.
 */
export function cacheControlOf(servedPath: string): string {
  const posix = servedPath.split(path.sep).join('/');
  return posix.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/**
 * Serves the built client, with index.html (the configured quick exit filled in, client-page.ts) for
 * every client route (the router lives in the browser).
 */
export async function registerClient(app: FastifyInstance, { clientDir, quickExitUrl }: ServerConfig) {
  const index = path.join(clientDir, 'index.html');
  if (!fs.existsSync(index)) return;
  const sendIndex = clientPage(index, quickExitUrl);
  await app.register(fastifyStatic, {
    root: clientDir,
    wildcard: true,
    index: false,
    // Source maps would hand out the source of every page; the build makes none, and none is served.
    allowedPath: (pathName) => !pathName.endsWith('.map'),
    // The build's .br and .gz copies (scripts/vite-plugin-precompress.ts), chosen by Accept-Encoding,
    // with Vary: Accept-Encoding on every answer.
    preCompressed: true,
    // Our own Cache-Control below, instead of the plugin's `public, max-age=0`.
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const served = path.relative(clientDir, filePath).replace(/\.(br|gz)$/, '');
      reply.header('Cache-Control', cacheControlOf(served));
      // The service worker script is revalidated on every update check (SPEC §4 App updates).
      if (served === 'sw.js') reply.header('Service-Worker-Allowed', '/');
    },
  });
  app.get('/', sendIndex);
  // Also the service worker's precache fetches it by this name.
  app.get('/index.html', sendIndex);
  registerStaffConsolePage(app, clientDir);
  app.setNotFoundHandler((req, reply) => {
    if (
      req.method !== 'GET' ||
      SERVER_PREFIXES.some((p) => req.url.startsWith(p)) ||
      path.extname(req.url.split('?')[0] ?? '')
    ) {
      return reply.code(404).send(new ApiError('not_found').toBody());
    }
    return sendIndex(req, reply);
  });
}

/**
 * The staff console (/personal) is a page of its own with its own bundle: every /personal route
 * gets dist/personal/index.html (its router lives in the browser); a file name there that does not
 * exist is a 404, as elsewhere.
 */
function registerStaffConsolePage(app: FastifyInstance, clientDir: string) {
  if (!fs.existsSync(path.join(clientDir, 'personal', 'index.html'))) return;
  const page = (req: { url: string }, reply: FastifyReply) => {
    const pathname = req.url.split('?')[0] ?? '';
    if (path.extname(pathname) && pathname !== '/personal/index.html') {
      return reply.code(404).send(new ApiError('not_found').toBody());
    }
    // cacheControl: false keeps @fastify/static from replacing no-cache with its own max-age=0.
    return reply.header('Cache-Control', 'no-cache').sendFile('personal/index.html', { cacheControl: false });
  };
  app.get('/personal', page);
  app.get('/personal/*', page);
}
