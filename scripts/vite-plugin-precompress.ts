// Build-time (Node) code: after the build is written (the service worker included), every text file
// of dist/ gets a brotli (.br) and a gzip (.gz) copy beside it, which the server hands out by the
// request's Accept-Encoding (server/app.ts, @fastify/static preCompressed). Compressed once, at the
// highest levels, instead of on every request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text that compresses; images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(?:js|mjs|css|html|json|svg|webmanifest|txt|xml)$/;
/** Below this a compressed copy saves less than the headers it costs. */
export const MIN_BYTES = 1024;

async function* filesUnder(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

/** Writes `file.br` and `file.gz` for every compressible file of `dir`; a copy no smaller is not kept. */
export async function precompressDir(dir: string): Promise<{ files: number; bytes: number; br: number }> {
  let files = 0;
  let bytes = 0;
  let br = 0;
  for await (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    const content = await readFile(file);
    const [asBr, asGz] = await Promise.all([
      brotli(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    if (asBr.length < content.length) await writeFile(`${file}.br`, asBr);
    if (asGz.length < content.length) await writeFile(`${file}.gz`, asGz);
    files += 1;
    bytes += content.length;
    br += Math.min(asBr.length, content.length);
  }
  return { files, bytes, br };
}

export function precompressPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every other plugin's closeBundle (the service worker is written there).
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        // A failed build wrote nothing to compress; its own error is the one to see.
        if (error) return;
        const { files, bytes, br } = await precompressDir(outDir);
        this.info?.(`precompressed ${files} files: ${bytes} bytes, ${br} as brotli`);
      },
    },
  };
}
