import {
  AbortError,
  DefaultHttpClient,
  HttpClient,
  NullLogger,
  type AbortSignal as HubAbortSignal,
  type HttpRequest,
  type HttpResponse,
} from '@microsoft/signalr';

/** The browser's WebSocket, where SignalR would use it itself (in Node it loads the `ws` package). */
const browserWebSocket: typeof WebSocket | undefined =
  !('process' in globalThis) && typeof WebSocket === 'function' ? WebSocket : undefined;

/**
 * What one hub connection holds open on the network (its HTTP requests: negotiate, long polls,
 * sends; and its WebSockets), so that a connection given up on can let go of all of it at once.
 *
 * SignalR's own `stop()` waits for a start under way, and its negotiate for up to 100 s. A start made
 * into a silently dead line is exactly such a start, and each holds one of the six connections a
 * browser keeps to one server over HTTP/1.1: after six silent losses within those 100 s every call
 * of the app (the liveness probes, the catch-up) waited behind them, and a flapping line's missed
 * message came 17 to 51 s after the line was back (`npm run bench:flaps`). Dropped, the requests are
 * aborted (the browser closes their sockets), the WebSockets closed, and anything the connection
 * tries afterwards fails at once.
 */
export class HubLines {
  private dropped = false;
  private readonly aborts = new Set<() => void>();
  private readonly sockets = new Set<WebSocket>();
  readonly httpClient: HttpClient;
  /** A WebSocket constructor that tracks its sockets; undefined where SignalR picks its own. */
  readonly WebSocket: typeof WebSocket | undefined;

  constructor(inner: HttpClient = new DefaultHttpClient(NullLogger.instance)) {
    this.httpClient = new DroppableHttpClient(inner, this);
    this.WebSocket = browserWebSocket ? trackedWebSocket(browserWebSocket, this) : undefined;
  }

  get isDropped(): boolean {
    return this.dropped;
  }

  /** Aborts every request under way, closes every socket, and refuses whatever comes after. */
  drop(): void {
    this.dropped = true;
    for (const abort of [...this.aborts]) abort();
    this.aborts.clear();
    for (const socket of [...this.sockets]) socket.close();
    this.sockets.clear();
  }

  /** @internal A request under way: `abort` ends it. Answers the function that forgets it again. */
  track(abort: () => void): () => void {
    this.aborts.add(abort);
    return () => this.aborts.delete(abort);
  }

  /** @internal */
  trackSocket(socket: WebSocket): void {
    if (this.dropped) {
      socket.close();
      return;
    }
    this.sockets.add(socket);
    socket.addEventListener('close', () => this.sockets.delete(socket));
  }
}

/** SignalR's own HTTP client, with every request also ended by `HubLines.drop()`. */
class DroppableHttpClient extends HttpClient {
  constructor(
    private readonly inner: HttpClient,
    private readonly lines: HubLines,
  ) {
    super();
  }

  override send(request: HttpRequest): Promise<HttpResponse> {
    if (this.lines.isDropped) return Promise.reject(new AbortError());
    const own = request.abortSignal;
    // The inner client hooks its abort into `onabort` of the signal it is given: ours, which the
    // caller's own signal (a long poll's) and a drop both fire.
    const signal: HubAbortSignal = { aborted: own?.aborted ?? false, onabort: null };
    const abort = () => {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.onabort?.();
    };
    if (own) own.onabort = abort;
    const forget = this.lines.track(abort);
    return this.inner.send({ ...request, abortSignal: signal }).finally(() => {
      forget();
      if (own?.onabort === abort) own.onabort = null;
    });
  }

  override getCookieString(url: string): string {
    return this.inner.getCookieString(url);
  }
}

function trackedWebSocket(Base: typeof WebSocket, lines: HubLines): typeof WebSocket {
  return class TrackedWebSocket extends Base {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      lines.trackSocket(this);
    }
  };
}
