import { describe, expect, it } from 'vitest';
import { isConnectionTrouble } from '../../src/chat-window/connection-trouble.ts';

describe('connection trouble (SPEC §8)', () => {
  it('is offline, or a hub that reconnects or gave up', () => {
    expect(isConnectionTrouble(true, 'Connected')).toBe(false);
    expect(isConnectionTrouble(true, 'Connecting')).toBe(false);
    expect(isConnectionTrouble(false, 'Connected')).toBe(true);
    expect(isConnectionTrouble(true, 'Reconnecting')).toBe(true);
    expect(isConnectionTrouble(true, 'Disconnected')).toBe(true);
  });
});
