import { VARIANT_HEADER, type AppVariant } from '../../contract/variant.ts';
import { REQUEST_TIMEOUT_MS, TRANSFER_TIMEOUT_MS } from '../../contract/timings.ts';
import { HttpError, UNKNOWN_ERROR, parseRetryAfter, refusalOfBody } from './http-error.ts';
import { ANTI_FORGERY_HEADER } from '../../contract/anti-forgery.ts';
import type { AntiForgery } from './anti-forgery.ts';

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  params?: Params;
  /** SPEC §6: public calls (registration, username check) carry no user token. */
  public?: boolean;
  headers?: Record<string, string>;
  /** false for calls whose failure must not be reported again (the client log's own POST). */
  report?: boolean;
  /**
   * This access token instead of asking the session for one: a call made while the token refresh
   * lock is held must not wait for that lock (a password change, see PortalWorker.renewSession).
   */
  token?: string;
  /** Give the call up after this long without a full answer (default REQUEST_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Set on the one retry after a 403 `anti_forgery` (the value was renewed in between). */
  antiForgeryRenewed?: boolean;
}

export interface HttpDeps {
  apiUrl: string;
  variant: AppVariant;
  fetch: typeof fetch;
  /** The current access token, or null when signed out. */
  accessToken(): Promise<string | null>;
  /** The origin the app is served from: only same-origin calls get the anti-forgery header. */
  origin: string;
  /** SPEC §7: the anti-forgery value copied into the header of same-origin writes. */
  antiForgery?: AntiForgery;
  /** The clock `abandonSentBefore` compares with (the worker's); Date.now by default. */
  now?: () => number;
  /** Every call's outcome: the status the server answered with, or 0 when no answer came. */
  onAnswer?(status: number): void;
  /** Every failure goes here before it is rethrown (the client log of SPEC §8). */
  reportError?(error: HttpError): void;
  /** The default of `RequestOptions.timeoutMs` (tests shorten it). */
  timeoutMs?: number;
}

type Body = { kind: 'json'; value: unknown } | { kind: 'form'; value: FormData } | null;
type ResponseKind = 'json' | 'text' | 'blob';

/**
 * The one HTTP helper of SPEC §7: variant header on every call, bearer unless public, JSON writes,
 * anti-forgery header on same-origin writes, failures reported and rethrown as `HttpError`.
 * Paths are relative to the API base unless they are absolute URLs.
 */
export class HttpClient {
  /** The calls under way, with when each was sent. */
  private readonly inFlight = new Map<AbortController, number>();

  constructor(private readonly deps: HttpDeps) {}

  /**
   * The line was found dead and is back: every call sent before `at` went into the dead line (a
   * socket that died silently never answers) and is given up now, as unanswered, instead of after
   * its timeout; its caller tries again on a line that works. `-Infinity` gives up nothing.
   */
  abandonSentBefore(at: number): void {
    for (const [abort, sentAt] of this.inFlight) if (sentAt < at) abort.abort();
  }

  get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.send<T>('GET', path, null, 'json', options);
  }

  getText(path: string, options: RequestOptions = {}): Promise<string> {
    return this.send<string>('GET', path, null, 'text', options);
  }

  getBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
    return this.send<Blob>('GET', path, null, 'blob', options);
  }

  post<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.send<T>('POST', path, { kind: 'json', value: body }, 'json', options);
  }

  put<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return this.send<T>('PUT', path, { kind: 'json', value: body }, 'json', options);
  }

  delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return this.send<T>('DELETE', path, null, 'json', options);
  }

  postMultipart<T>(path: string, form: FormData, options: RequestOptions = {}): Promise<T> {
    return this.send<T>('POST', path, { kind: 'form', value: form }, 'json', options);
  }

  /** A file download answered to a POST (SPEC §7 helper). */
  postDownload(path: string, body: unknown, options: RequestOptions = {}): Promise<Blob> {
    return this.send<Blob>('POST', path, { kind: 'json', value: body }, 'blob', options);
  }

  /** URL and headers for a call made outside fetch (an XMLHttpRequest upload that reports progress). */
  async prepare(method: string, path: string, params?: Params) {
    const url = this.resolve(path, params);
    return { url, headers: await this.headers(method, url, null, {}) };
  }

  /**
   * Asks the server for the anti-forgery value again (its cookie was cleared or replaced); answers
   * whether a value was had. A call made outside fetch (an upload) retries with it itself.
   */
  async renewAntiForgery(): Promise<boolean> {
    if (!this.deps.antiForgery) return false;
    return this.deps.antiForgery.renew().then(
      () => true,
      () => false,
    );
  }

  /** Lets a call made outside fetch report its failure like every other call. */
  report(error: HttpError): void {
    this.deps.reportError?.(error);
  }

  resolve(path: string, params?: Params): string {
    const url = new URL(/^https?:/.test(path) ? path : `${this.deps.apiUrl}${path}`);
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async send<T>(
    method: string,
    path: string,
    body: Body,
    responseKind: ResponseKind,
    options: RequestOptions,
  ): Promise<T> {
    const url = this.resolve(path, options.params);
    const timeoutMs =
      options.timeoutMs ??
      (responseKind === 'blob' || body?.kind === 'form'
        ? TRANSFER_TIMEOUT_MS
        : (this.deps.timeoutMs ?? REQUEST_TIMEOUT_MS));
    // One deadline for the whole call, answer body included: a line that stalls mid-body counts too.
    const abort = new AbortController();
    const deadline = setTimeout(() => abort.abort(), timeoutMs);
    this.inFlight.set(abort, (this.deps.now ?? Date.now)());
    try {
      const headers = await this.headers(method, url, body, options);
      let response: Response;
      try {
        response = await this.deps.fetch(url, {
          method,
          headers,
          body: body === null ? undefined : body.kind === 'json' ? JSON.stringify(body.value) : body.value,
          signal: abort.signal,
        });
      } catch {
        throw new HttpError(0, UNKNOWN_ERROR, method, url);
      }
      this.deps.onAnswer?.(response.status);
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        if (abort.signal.aborted) throw new HttpError(0, UNKNOWN_ERROR, method, url);
        // The browser's anti-forgery cookie was cleared or replaced: ask again, and try once more.
        if (
          isAntiForgeryRefusal(response.status, text) &&
          this.deps.antiForgery &&
          !options.antiForgeryRenewed
        ) {
          // No new value now (a blip, a deploy): as good as no answer, so the outbox tries again
          // later instead of taking the refusal as final.
          if (!(await this.renewAntiForgery())) throw new HttpError(0, UNKNOWN_ERROR, method, url);
          // Its failure, if any, is reported once, by this call's catch below.
          return await this.send<T>(method, path, body, responseKind, {
            ...options,
            antiForgeryRenewed: true,
            report: false,
          });
        }
        const retryAfterMs = parseRetryAfter(response.headers.get('Retry-After'), Date.now());
        throw new HttpError(
          response.status,
          errorMessage(response, text),
          method,
          url,
          parse(text),
          retryAfterMs,
        );
      }
      try {
        return (await read(response, responseKind)) as T;
      } catch (error) {
        // The answer broke off (timeout, cut line): as good as no answer at all.
        if (abort.signal.aborted || error instanceof TypeError)
          throw new HttpError(0, UNKNOWN_ERROR, method, url);
        throw error;
      }
    } catch (error) {
      const failure = error instanceof HttpError ? error : new HttpError(0, String(error), method, url, null);
      if (failure.status === 0) this.deps.onAnswer?.(0);
      if (options.report !== false) this.deps.reportError?.(failure);
      throw failure;
    } finally {
      clearTimeout(deadline);
      this.inFlight.delete(abort);
    }
  }

  private async headers(method: string, url: string, body: Body, options: RequestOptions) {
    const headers: Record<string, string> = { [VARIANT_HEADER]: this.deps.variant, ...options.headers };
    if (!options.public) {
      const token = options.token ?? (await this.deps.accessToken());
      if (token) headers.Authorization = `Bearer ${token}`;
    }
    // FormData sets its own multipart boundary; only JSON bodies name their type.
    if (body?.kind === 'json') headers['Content-Type'] = 'application/json';
    if (method !== 'GET' && new URL(url).origin === this.deps.origin) {
      const token = await this.deps.antiForgery?.token();
      if (token) headers[ANTI_FORGERY_HEADER] = token;
    }
    return headers;
  }
}

function parse(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorMessage(response: Response, text: string): string {
  const body = parse(text) as { message?: unknown } | null;
  const detail = typeof body?.message === 'string' ? body.message : response.statusText;
  return `${response.status} ${detail}`.trim();
}

async function read(response: Response, kind: ResponseKind): Promise<unknown> {
  if (kind === 'blob') return response.blob();
  const text = await response.text();
  return kind === 'text' ? text : parse(text);
}

/** 403 `anti_forgery`: the write's anti-forgery header did not match the browser's cookie. */
function isAntiForgeryRefusal(status: number, text: string): boolean {
  return isAntiForgeryAnswer(status, parse(text));
}

/** The same for an answer already parsed (an upload's `HttpError`). */
export function isAntiForgeryAnswer(status: number, body: unknown): boolean {
  return status === 403 && refusalOfBody(body)?.code === 'anti_forgery';
}
