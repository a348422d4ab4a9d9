import type { AssistantAnswer, AssistantContent } from '../../contract/assistant.ts';
import type { AssistantTokenValue } from '../base/assistant.ts';
import { failure, ok, type LoadResult, type Result } from '../base/result.ts';
import { isHttpError, refusalOf } from '../http/http-error.ts';
import type { SyncContext } from './sync-context.ts';
import type { HubHandlers, SyncModule } from './sync-module.ts';
import type { VariantFeatures } from '../../contract/variant.ts';
import { loadErrorOf } from './load-result.ts';

const BASE = '/api/assistant';

type AskError = 'offline' | 'failed' | 'forbidden' | 'rate_limited';

export interface AssistantCommands {
  /** A new public access token (SPEC §6): the tab keeps it in its cookie and passes it back. */
  assistantToken(): Promise<Result<AssistantTokenValue, 'offline' | 'failed' | 'rate_limited'>>;
  /** Fetches the guided content into the database; without an answer the cached copy stays. */
  loadAssistantContent(token: string): Promise<LoadResult>;
  /** Matches a free-text question on the server; neither it nor the answer is stored. */
  askAssistant(token: string, question: string): Promise<Result<AssistantAnswer, AskError>>;
}

function askErrorOf(error: unknown): AskError {
  if (isHttpError(error) && error.status === 429) return 'rate_limited';
  const code = loadErrorOf(error);
  return code === 'not_found' ? 'failed' : code;
}

/**
 * The virtual assistant. The worker cannot read cookies, so the tab owns the public
 * token and hands it over with each call; the content goes to Dexie so an offline child still gets
 * the guided answers.
 */
export class AssistantSync implements SyncModule<AssistantCommands> {
  readonly tables = [];
  readonly commands: AssistantCommands;
  readonly hears: HubHandlers = {};

  constructor(private readonly ctx: SyncContext) {
    this.commands = {
      assistantToken: () => this.token(),
      loadAssistantContent: (token) => this.loadContent(token),
      askAssistant: (token, question) => this.ask(token, question),
    };
  }

  runsIn(features: VariantFeatures): boolean {
    return features.assistant;
  }

  private async token(): Promise<Result<AssistantTokenValue, 'offline' | 'failed' | 'rate_limited'>> {
    try {
      const now = this.ctx.clock.now();
      const body = await this.ctx.http.post<{ access_token: string; expires_in: number }>(
        `${BASE}/token`,
        {},
        { public: true },
      );
      return ok({ access_token: body.access_token, expires_at: now + body.expires_in * 1000 });
    } catch (error) {
      if (isHttpError(error) && error.status === 429)
        return failure('rate_limited', refusalOf(error)?.message);
      return failure(isHttpError(error) && error.status === 0 ? 'offline' : 'failed');
    }
  }

  /** The content is a few kilobytes: fetched whole each time the panel opens, kept for offline. */
  private async loadContent(token: string): Promise<LoadResult> {
    try {
      const content = await this.ctx.http.get<AssistantContent>(`${BASE}/content`, { token });
      await this.ctx.db.assistantContent.put({ id: 'current', content, storedAt: this.ctx.clock.now() });
      return ok(undefined);
    } catch (error) {
      return failure(loadErrorOf(error));
    }
  }

  private async ask(token: string, question: string): Promise<Result<AssistantAnswer, AskError>> {
    try {
      // `report: false`: a failure's report could carry nothing of the question, but it is not needed.
      return ok(
        await this.ctx.http.post<AssistantAnswer>(`${BASE}/ask`, { question }, { token, report: false }),
      );
    } catch (error) {
      const code = askErrorOf(error);
      return failure(code, code === 'rate_limited' ? refusalOf(error)?.message : undefined);
    }
  }
}
