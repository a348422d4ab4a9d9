/**
 * A failed call as a value: `status` 0 means the request never got an answer (offline, DNS, CORS),
 * and then `message` is 'Unknown Error' as the client-log skip rule of SPEC §8 expects.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly method: string,
    readonly url: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const UNKNOWN_ERROR = 'Unknown Error';

export const isHttpError = (e: unknown): e is HttpError => e instanceof HttpError;
