import { createHash } from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
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
