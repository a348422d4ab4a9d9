import { HUB_CLIENT_EVENT } from '../../contract/hub.ts';
/**
 * The SignalR JSON hub protocol: records are JSON texts each terminated by the record separator 0x1e.
 * See https://github.com/dotnet/aspnetcore/blob/main/src/SignalR/docs/specs/HubProtocol.md
 */

export const RECORD_SEPARATOR = '\x1e';

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  Ack: 8,
  Sequence: 9,
} as const;

/** The client method every server-to-client event is delivered to. */
export const EVENT_TARGET = HUB_CLIENT_EVENT;

/**
 * The @microsoft/signalr client announces json version 2 (which only adds the stateful-reconnect messages we
 * never negotiate); older clients say 1. ASP.NET accepts any version up to its own, so do we.
 */
const MAX_JSON_PROTOCOL_VERSION = 2;

export interface InvocationMessage {
  type: typeof MessageType.Invocation | typeof MessageType.StreamInvocation;
  invocationId: string | undefined;
  target: string;
  arguments: unknown[];
}

export type ClientMessage =
  | InvocationMessage
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close }
  /** Stream items, cancellations, acks and sequences: valid protocol we have no use for. */
  | { type: 'ignored' };

export type Frame = Buffer;

export const encodeFrame = (message: object): Frame =>
  Buffer.from(JSON.stringify(message) + RECORD_SEPARATOR, 'utf8');

/** Kept as a string so a backplane can ship it verbatim; each process turns it into one Buffer. */
export const sendEventFrameText = (eventName: string, data: unknown, entityKey: string): string =>
  JSON.stringify({
    type: MessageType.Invocation,
    target: EVENT_TARGET,
    arguments: [eventName, data, entityKey],
  }) + RECORD_SEPARATOR;

export const PING_FRAME: Frame = encodeFrame({ type: MessageType.Ping });
export const HANDSHAKE_OK_FRAME: Frame = encodeFrame({});

export const handshakeErrorFrame = (error: string): Frame => encodeFrame({ error });

export const closeFrame = (options: { error?: string; allowReconnect?: boolean } = {}): Frame =>
  encodeFrame({
    type: MessageType.Close,
    ...(options.error === undefined ? {} : { error: options.error }),
    ...(options.allowReconnect ? { allowReconnect: true } : {}),
  });

export const completionFrame = (
  invocationId: string,
  outcome: { result: unknown } | { error: string },
): Frame => encodeFrame({ type: MessageType.Completion, invocationId, ...outcome });

/**
 * Splits buffered text into complete records. A transport may deliver several records at once, or (in
 * theory) a record in pieces, so whatever follows the last separator is handed back to be kept.
 */
export function splitRecords(text: string): { records: string[]; rest: string } {
  const parts = text.split(RECORD_SEPARATOR);
  const rest = parts.pop() ?? '';
  return { records: parts.filter((p) => p.length > 0), rest };
}

const parseObject = (record: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(record);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
};

export type HandshakeResult = { ok: true } | { ok: false; error: string };

export function parseHandshake(record: string): HandshakeResult {
  const value = parseObject(record);
  if (!value || typeof value.protocol !== 'string' || typeof value.version !== 'number') {
    return { ok: false, error: 'Handshake request is invalid.' };
  }
  if (value.protocol !== 'json') {
    return { ok: false, error: `The protocol '${value.protocol}' is not supported.` };
  }
  if (!Number.isInteger(value.version) || value.version < 1 || value.version > MAX_JSON_PROTOCOL_VERSION) {
    return {
      ok: false,
      error: `The server does not support version ${value.version} of the 'json' protocol.`,
    };
  }
  return { ok: true };
}

/** null: not a valid hub message, which ASP.NET answers by closing the connection. */
export function parseClientMessage(record: string): ClientMessage | null {
  const value = parseObject(record);
  if (!value) return null;
  switch (value.type) {
    case MessageType.Invocation:
    case MessageType.StreamInvocation: {
      const { invocationId, target, arguments: args } = value;
      if (typeof target !== 'string' || !Array.isArray(args)) return null;
      if (invocationId !== undefined && invocationId !== null && typeof invocationId !== 'string')
        return null;
      return { type: value.type, invocationId: invocationId ?? undefined, target, arguments: args };
    }
    case MessageType.Ping:
      return { type: MessageType.Ping };
    case MessageType.Close:
      return { type: MessageType.Close };
    case MessageType.StreamItem:
    case MessageType.Completion:
    case MessageType.CancelInvocation:
    case MessageType.Ack:
    case MessageType.Sequence:
      return { type: 'ignored' };
    default:
      return null;
  }
}
