import fs from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Value } from '@sinclair/typebox/value';
import type { AssistantContent } from '../../contract/assistant.ts';
import { AssistantContentSchema } from '../../contract/schemas/assistant.ts';

export interface LoadedContent {
  content: AssistantContent;
  /** The body as served, and its strong ETag. */
  json: string;
  etag: string;
}

/** Why a content file cannot be served, in words for the server log (never the child's). */
export function contentProblem(value: unknown): string | null {
  if (!Value.Check(AssistantContentSchema, value)) {
    const first = Value.Errors(AssistantContentSchema, value).First();
    return first ? `${first.path || '/'}: ${first.message}` : 'does not fit the schema';
  }
  const ids = value.topics.map((t) => t.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) return `topic id "${twice}" appears twice`;
  const blank = value.topics.find((t) => t.keywords.some((k) => k.trim().length < 2));
  if (blank) return `topic "${blank.id}" has a keyword shorter than two letters`;
  return null;
}

/**
 * The assistant's content file, which the provider edits without a build or a restart: each request
 * looks at the file's modification time and reads it again when it changed. An edit that is not
 * valid JSON or does not fit the schema is logged and the last good version stays in service.
 */
export class AssistantContentStore {
  private current: LoadedContent | null = null;
  private seen: { mtimeMs: number; size: number } | null = null;
  private loading: Promise<LoadedContent> | null = null;

  constructor(
    private readonly file: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {}

  /** The content to serve; throws only when no good version was ever read. */
  get(): Promise<LoadedContent> {
    this.loading ??= this.refresh().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async refresh(): Promise<LoadedContent> {
    let stat: { mtimeMs: number; size: number } | null = null;
    try {
      const s = await fs.stat(this.file);
      stat = { mtimeMs: s.mtimeMs, size: s.size };
    } catch (error) {
      this.log.warn({ file: this.file, error: String(error) }, 'Assistant content file cannot be read');
    }
    const changed = stat && (stat.mtimeMs !== this.seen?.mtimeMs || stat.size !== this.seen?.size);
    if (changed) {
      this.seen = stat;
      const next = await this.read();
      if (next) this.current = next;
    }
    if (!this.current) throw new Error(`No valid assistant content in ${this.file}`);
    return this.current;
  }

  private async read(): Promise<LoadedContent | null> {
    let value: unknown;
    try {
      value = JSON.parse(await fs.readFile(this.file, 'utf8'));
    } catch (error) {
      this.log.warn(
        { file: this.file, error: String(error) },
        'Assistant content is not valid JSON; the last good version stays',
      );
      return null;
    }
    const problem = contentProblem(value);
    if (problem) {
      this.log.warn(
        { file: this.file, problem },
        'Assistant content is not valid; the last good version stays',
      );
      return null;
    }
    const content = value as AssistantContent;
    const json = JSON.stringify(content);
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
    this.log.info({ file: this.file, version: content.version }, 'Assistant content loaded');
    return { content, json, etag };
  }
}
