import { describe, expect, it } from 'vitest';
import { COMMAND_RETRY } from '../../worker/client/api.ts';
import { StandingRegistrations } from '../../worker/client/standing-registrations.ts';

describe('standing registrations of a tab', () => {
  it('replays each open not yet closed, as often as it is held, with its latest arguments', () => {
    const held = new StandingRegistrations();
    held.record('openGroupChat', [7]);
    held.record('openGroupChat', [7]);
    held.record('openConversation', [8]);
    held.record('subscribe', ['Conversation:9', 'group']);
    held.record('closeGroupChat', [7]);
    held.record('closeConversation', [8]);
    held.record('unsubscribe', ['Conversation:1']);
    expect(held.replay()).toEqual([
      { name: 'openGroupChat', args: [7] },
      { name: 'subscribe', args: ['Conversation:9', 'group'] },
    ]);
  });

  it('replays a switch that is on and the latest state, nothing taken back, nothing else', () => {
    const held = new StandingRegistrations();
    held.record('watchMeeting', [1, true]);
    held.record('watchMeeting', [2, true]);
    held.record('watchMeeting', [2, false]);
    held.record('watchMeeting', [3, false]);
    held.record('tabVisibility', ['tab', true]);
    held.record('tabVisibility', ['tab', false]);
    held.record('chatInView', ['tab', true]);
    held.record('loadMeetings', []);
    held.record('networkChanged', [true]);
    expect(held.replay()).toEqual([
      { name: 'watchMeeting', args: [1, true] },
      { name: 'tabVisibility', args: ['tab', false] },
      { name: 'chatInView', args: ['tab', true] },
    ]);
  });

  it('is driven by the classification of the commands: every standing command is replayed', () => {
    const standing = Object.entries(COMMAND_RETRY).flatMap(([name, retry]) =>
      typeof retry === 'object' ? [name] : [],
    );
    expect(standing.sort()).toEqual(
      [
        'chatInView',
        'openConversation',
        'openGroupChat',
        'subscribe',
        'tabVisibility',
        'watchMeeting',
      ].sort(),
    );
    const held = new StandingRegistrations();
    for (const name of standing) held.record(name, [1, true]);
    expect(held.replay().map((call) => call.name)).toEqual(standing);
  });
});
