import { describe, expect, it } from 'vitest';
import { APP_VARIANTS, sendsConversationProperties } from '../../contract/variant.ts';

describe('the variants', () => {
  it('send conversation properties from the child app only, as read from their features', () => {
    const sending = APP_VARIANTS.filter((variant) => sendsConversationProperties(variant));
    expect(sending).toEqual(['Barn', 'Chatt', 'Peers', 'Assistent']);
  });
});
