import { describe, expect, it } from 'vitest';
import type { PeerMessage } from '../../../worker/portal-worker-deps.ts';
import { PEER_ATTENTION_REFRESH_MS, PeerAttention } from '../../../worker/tabs/peer-attention.ts';
import { ManualClock } from '../helpers.ts';

/** A follower and the leader of the dedicated-worker fallback, joined as the broadcast joins them. */
function pair() {
  const clock = new ManualClock();
  const sent: PeerMessage[] = [];
  const leader = new PeerAttention({ clock, workerId: 'leader', isRunner: () => true });
  const follower = new PeerAttention({
    clock,
    workerId: 'follower',
    notifyPeers: (message) => {
      sent.push(message);
      if (message.type === 'attention') leader.heard(message.worker, message.on);
    },
    isRunner: () => false,
  });
  return { clock, sent, follower, leader };
}

describe("the fallback's attention: a follower's tab shows a live chat", () => {
  it('tells the leader when it starts and stops, once each', () => {
    const { sent, follower, leader } = pair();
    follower.own(true);
    follower.own(true);
    expect(leader.any()).toBe(true);
    follower.own(false);
    expect(leader.any()).toBe(false);
    expect(sent).toEqual([
      { type: 'attention', worker: 'follower', on: true },
      { type: 'attention', worker: 'follower', on: false },
    ]);
  });

  it('tells it again while it lasts, and the leader forgets a follower that went without a word', () => {
    const { clock, sent, follower, leader } = pair();
    follower.own(true);
    clock.advance(PEER_ATTENTION_REFRESH_MS);
    expect(sent).toHaveLength(2);
    expect(leader.any()).toBe(true);
    // The follower's tab closed unseen: nothing more is told, and the leader lets it go.
    follower.stopTelling();
    clock.advance(4 * PEER_ATTENTION_REFRESH_MS);
    expect(leader.any()).toBe(false);
    expect(clock.pending()).toBe(0);
  });

  it('tells a new leader again, and stops telling once it leads itself', () => {
    const { clock, sent, follower } = pair();
    follower.own(true);
    follower.tellAgain();
    expect(sent).toHaveLength(2);
    follower.stopTelling();
    clock.advance(2 * PEER_ATTENTION_REFRESH_MS);
    expect(sent).toHaveLength(2);
  });
});
