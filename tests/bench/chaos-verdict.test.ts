import { describe, expect, it } from 'vitest';
import { verdictOf, type StoredMessage } from '../../bench/chaos-verdict.ts';
import type { Sent } from '../../bench/chaos-client.ts';

/** The chaos run's judge must see each kind of failure it reports, or a green run proves nothing. */
const sent = (conversationId: number, sender: string, seq: number): Sent => ({
  conversationId,
  sender,
  seq,
  text: `${sender} #${seq} hej`,
});
const stored = (id: number, m: Sent): StoredMessage => ({
  id,
  conversation_id: m.conversationId,
  message: m.text,
});

const a1 = sent(1, 'barn1', 1);
const a2 = sent(1, 'barn1', 2);
const k1 = sent(1, 'kurator-1', 1);
const b1 = sent(2, 'barn1', 3);

describe('the chaos verdict', () => {
  it('finds nothing wrong when every message is stored once, in order per sender', () => {
    const rows = [stored(1, a1), stored(2, k1), stored(3, a2), stored(4, b1)];
    // Another sender in between and messages that are not the run's (system notices) change nothing.
    rows.push({ id: 5, conversation_id: 1, message: 'Kuratorn har anslutit' });
    expect(verdictOf([a1, a2, k1, b1], rows)).toEqual({
      lost: 0,
      duplicated: 0,
      disordered: 0,
      discrepancies: [],
    });
  });

  it('counts a message that never arrived, or arrived in another conversation, as lost', () => {
    const verdict = verdictOf([a1, a2, b1], [stored(1, a1), { id: 2, conversation_id: 1, message: b1.text }]);
    expect(verdict.lost).toBe(2);
    expect(verdict.discrepancies).toEqual([
      'lost: "barn1 #2 hej" in conversation 1',
      'lost: "barn1 #3 hej" stored in another conversation than 2',
    ]);
  });

  it('counts every extra copy as a duplicate', () => {
    const verdict = verdictOf([a1], [stored(1, a1), stored(2, a1), stored(3, a1)]);
    expect(verdict.duplicated).toBe(2);
    expect(verdict.lost).toBe(0);
  });

  it('counts a sender’s message stored after its later one as out of order', () => {
    const verdict = verdictOf([a1, a2, k1], [stored(1, a2), stored(2, k1), stored(3, a1)]);
    expect(verdict.disordered).toBe(1);
    expect(verdict.discrepancies).toEqual(['out of order in conversation 1: "barn1 #1 hej" after #2']);
  });
});
