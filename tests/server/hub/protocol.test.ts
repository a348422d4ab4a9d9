import { describe, expect, it } from 'vitest';
import {
  closeFrame,
  parseClientMessage,
  parseHandshake,
  sendEventFrameText,
  splitRecords,
} from '../../../server/hub/protocol.ts';

describe('hub protocol framing', () => {
  it('splits complete records and keeps an unterminated tail', () => {
    expect(splitRecords('{"type":6}\x1e{"type":6}\x1e{"ty')).toEqual({
      records: ['{"type":6}', '{"type":6}'],
      rest: '{"ty',
    });
    expect(splitRecords('')).toEqual({ records: [], rest: '' });
  });

  it('accepts json versions 1 and 2 only', () => {
    expect(parseHandshake('{"protocol":"json","version":1}')).toEqual({ ok: true });
    expect(parseHandshake('{"protocol":"json","version":2}')).toEqual({ ok: true });
    expect(parseHandshake('{"protocol":"json","version":3}').ok).toBe(false);
    expect(parseHandshake('{"protocol":"messagepack","version":1}').ok).toBe(false);
    expect(parseHandshake('nonsense').ok).toBe(false);
  });

  it('parses invocations with and without an id, and rejects malformed messages', () => {
    expect(parseClientMessage('{"type":1,"invocationId":"3","target":"X","arguments":[1]}')).toEqual({
      type: 1,
      invocationId: '3',
      target: 'X',
      arguments: [1],
    });
    expect(parseClientMessage('{"type":1,"target":"X","arguments":[]}')).toMatchObject({
      invocationId: undefined,
    });
    expect(parseClientMessage('{"type":1,"target":"X"}')).toBeNull();
    expect(parseClientMessage('{"type":42}')).toBeNull();
    expect(parseClientMessage('[1]')).toBeNull();
    expect(parseClientMessage('{"type":8,"sequenceId":1}')).toEqual({ type: 'ignored' });
  });

  it('frames events and close messages as the client expects', () => {
    expect(sendEventFrameText('E', { a: 1 }, 'Contact:1')).toBe(
      '{"type":1,"target":"SendEvent","arguments":["E",{"a":1},"Contact:1"]}\x1e',
    );
    expect(closeFrame({ allowReconnect: true }).toString()).toBe('{"type":7,"allowReconnect":true}\x1e');
    expect(closeFrame({ error: 'Token revoked' }).toString()).toBe('{"type":7,"error":"Token revoked"}\x1e');
  });
});
