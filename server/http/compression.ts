import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** JSON answers from this size on go compressed (smaller ones cost more than they save). */
export const COMPRESS_JSON_MIN_BYTES = 1024;

/** The encodings the request accepts (q > 0), of the two we make: brotli first, then gzip. */
export function chooseEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

function withVary(current: unknown, name: string): string {
  const list = String(current ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  return list.some((v) => v.toLowerCase() === name.toLowerCase())
    ? list.join(', ')
    : [...list, name].join(', ');
}

/**
 * onSend, last of the API's hooks (after the idempotency record has read the answer): a JSON answer
 * of 1 KB or more goes brotli- or gzip-compressed by the request's Accept-Encoding. Brotli at a
 * middle quality: most of the saving for little time per answer.
 */
export async function compressJsonAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (reply.hasHeader('Content-Encoding')) return payload;
  if (!String(reply.getHeader('Content-Type') ?? '').startsWith('application/json')) return payload;
  reply.header('Vary', withVary(reply.getHeader('Vary'), 'Accept-Encoding'));
  if (Buffer.byteLength(payload) < COMPRESS_JSON_MIN_BYTES) return payload;
  const encoding = chooseEncoding(req.headers['accept-encoding']);
  if (!encoding) return payload;
  const body =
    encoding === 'br'
      ? await brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
      : await gzip(payload, { level: 6 });
  reply.removeHeader('Content-Length');
  reply.header('Content-Encoding', encoding);
  return body;
}
