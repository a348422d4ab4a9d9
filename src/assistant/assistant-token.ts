import {
  ASSISTANT_TOKEN_COOKIE,
  ASSISTANT_TOKEN_COOKIE_SECONDS,
  ASSISTANT_TOKEN_SECONDS,
} from '../../contract/assistant.ts';
import { TOKEN_TIMEOUT_FACTOR } from '../../contract/timings.ts';
import { readNamedCookie, writeNamedCookie } from '../ui-kit/app-cookies.ts';
import type { AssistantTokenValue } from '../../worker/client/assistant.ts';
import type { WorkerCommands } from '../../worker/client/api.ts';

/**
 * SPEC §3, §6: the public access token is JSON in the cookie `assistant-token` (14400 s, Secure,
 * SameSite=None). The tab owns it, since the data worker cannot read cookies, and hands the token to
 * the worker with each assistant call. Its name holds 'assistant', so a login keeps it.
 */
export function readAssistantToken(): AssistantTokenValue | null {
  const raw = readNamedCookie(ASSISTANT_TOKEN_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(decodeURIComponent(raw)) as Partial<AssistantTokenValue>;
    if (typeof value.access_token !== 'string' || typeof value.expires_at !== 'number') return null;
    return { access_token: value.access_token, expires_at: value.expires_at };
  } catch {
    return null;
  }
}

function writeAssistantToken(value: AssistantTokenValue) {
  const json = encodeURIComponent(JSON.stringify(value));
  // The SPEC fixes this cookie's name and attributes, so it has no app prefix.
  writeNamedCookie(ASSISTANT_TOKEN_COOKIE, json, {
    maxAge: ASSISTANT_TOKEN_COOKIE_SECONDS,
    secure: true,
    sameSite: 'None',
  });
}

/** When the token is renewed: at TOKEN_TIMEOUT_FACTOR of its lifetime, as the user's token is. */
export function renewalAt(value: AssistantTokenValue): number {
  return value.expires_at - (1 - TOKEN_TIMEOUT_FACTOR) * ASSISTANT_TOKEN_SECONDS * 1000;
}

let renewing: Promise<string | null> | null = null;

/**
 * A usable token: the cookie's while it is not due for renewal, else a new one (`fresh` asks for a
 * new one anyway, after the server refused the old). Null when none can be had (offline).
 */
export function assistantToken(
  api: Pick<WorkerCommands, 'assistantToken'>,
  fresh = false,
): Promise<string | null> {
  const current = readAssistantToken();
  if (!fresh && current && Date.now() < renewalAt(current)) return Promise.resolve(current.access_token);
  renewing ??= api
    .assistantToken()
    .then((result) => {
      if (result.ok) {
        writeAssistantToken(result.value);
        return result.value.access_token;
      }
      return current && !fresh && current.expires_at > Date.now() ? current.access_token : null;
    })
    .finally(() => {
      renewing = null;
    });
  return renewing;
}
