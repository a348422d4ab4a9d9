import { describe, expect, it } from 'vitest';
import { connectionNotice, isConnectionTrouble } from '../../src/chat-window/connection-trouble.ts';

describe('connection trouble (SPEC §8)', () => {
  it('is offline, or a hub that reconnects or gave up', () => {
    expect(isConnectionTrouble(true, 'Connected')).toBe(false);
    expect(isConnectionTrouble(true, 'Connecting')).toBe(false);
    expect(isConnectionTrouble(false, 'Connected')).toBe(true);
    expect(isConnectionTrouble(true, 'Reconnecting')).toBe(true);
    expect(isConnectionTrouble(true, 'Disconnected')).toBe(true);
  });

  it('says the service does not answer when the server answers only with errors, the network working', () => {
    expect(connectionNotice({ online: true, hubState: 'Connected', serverTrouble: true })).toBe('server');
    expect(connectionNotice({ online: true, hubState: 'Disconnected', serverTrouble: true })).toBe('server');
    // Offline, the server's last answer says nothing about now.
    expect(connectionNotice({ online: false, hubState: 'Connected', serverTrouble: true })).toBe(
      'connection',
    );
    expect(connectionNotice({ online: true, hubState: 'Reconnecting', serverTrouble: false })).toBe(
      'connection',
    );
    expect(connectionNotice({ online: true, hubState: 'Connected', serverTrouble: false })).toBeNull();
  });
});
