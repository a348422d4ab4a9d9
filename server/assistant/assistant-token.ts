import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { ASSISTANT_TOKEN_SECONDS, type AssistantTokenResponse } from '../../contract/assistant.ts';
import type { KeyRing } from '../auth/keys.ts';
import { SIGNING_ALG } from '../auth/keys.ts';

/**
 * SPEC §6: public assistant use sends a public access token, not a user's. It is signed with the
 * server's keys but for its own audience and type, so the API and the hub (audience 'portal', type
 * at+jwt, an account behind it) never accept it, and it names nobody: its subject is random.
 */
export const ASSISTANT_AUDIENCE = 'assistant';
const ASSISTANT_TYP = 'assistant+jwt';

export async function issueAssistantToken(
  keys: KeyRing,
  issuer: string,
  seconds = ASSISTANT_TOKEN_SECONDS,
): Promise<AssistantTokenResponse> {
  const now = Math.floor(Date.now() / 1000);
  const key = keys.current.signing;
  const access_token = await new SignJWT({ scope: 'assistant' })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: ASSISTANT_TYP })
    .setIssuer(issuer)
    .setAudience(ASSISTANT_AUDIENCE)
    .setSubject(`anon:${randomUUID()}`)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(key.privateKey);
  return { access_token, token_type: 'Bearer', expires_in: seconds, scope: 'assistant' };
}

/** The random subject of a valid, unexpired assistant token of this site, else null. */
export async function verifyAssistantToken(
  keys: KeyRing,
  token: string,
  acceptsIssuer: (issuer: string) => boolean,
): Promise<string | null> {
  try {
    const { kid } = decodeProtectedHeader(token);
    const key = await keys.find(kid);
    if (!key) return null;
    const { payload } = await jwtVerify(token, key.publicKey, {
      algorithms: [SIGNING_ALG],
      audience: ASSISTANT_AUDIENCE,
      typ: ASSISTANT_TYP,
    });
    const valid =
      payload.scope === 'assistant' &&
      typeof payload.sub === 'string' &&
      typeof payload.iss === 'string' &&
      acceptsIssuer(payload.iss);
    return valid ? (payload.sub ?? null) : null;
  } catch {
    return null;
  }
}
