import { describe, expect, it } from 'vitest';
import type { ChatEntry } from '../../src/chat-window/chat-messages.ts';
import { withCounsellorLabels } from '../../src/historic-chat/counsellor-label.ts';
import { lengthError } from '../../src/writing/length-error.ts';

const texts = { required: 'Måste anges.', tooLong: 'För långt.' };

describe('lengthError', () => {
  it('requires a non-blank value and refuses one over the limit', () => {
    expect(lengthError('', 5, texts)).toBe('Måste anges.');
    expect(lengthError('   \n', 5, texts)).toBe('Måste anges.');
    expect(lengthError('12345', 5, texts)).toBeNull();
    expect(lengthError('123456', 5, texts)).toBe('För långt.');
  });
});

const entry = (key: string, authorType: ChatEntry['authorType'], authorName: string): ChatEntry => ({
  key,
  content: key,
  loggedDate: '2026-05-01T10:00:00.000Z',
  authorType,
  authorName,
  sendStatus: null,
  createdAfterClosedConversation: false,
  sameAuthorAsPreviousMessage: false,
});

describe('withCounsellorLabels', () => {
  it("signs counsellor messages with the provider's name and 'Kurator', whoever wrote them", () => {
    const labelled = withCounsellorLabels(
      [entry('a', 'me', ''), entry('b', 'staff', 'Kim'), entry('c', 'staff', 'Alex'), entry('d', 'me', '')],
      'Stödlinjen',
      'Kurator',
    );
    expect(labelled.map((e) => e.authorName)).toEqual(['', 'Stödlinjen Kurator', 'Stödlinjen Kurator', '']);
    expect(labelled.map((e) => e.sameAuthorAsPreviousMessage)).toEqual([false, false, true, false]);
  });
});
