import { css } from '@linaria/core';
import { badge as groupBadge, badgeKinds, card as groupCard } from '../meeting-ui/meeting.styles.ts';
import { colors } from '../styles/theme.ts';

export const list = css`
  margin: 0;
  padding: 0;
  list-style: none;
`;

/** The group-support card, with long words in a subject or text wrapped at 320 px. */
const cardText = css`
  h3 {
    overflow-wrap: anywhere;
  }
  p {
    margin: 0.25rem 0;
    overflow-wrap: anywhere;
  }
`;

export const card = `${groupCard} ${cardText}`;

export const unreadCard = css`
  border-left: 4px solid ${colors.brand};
`;

export const meta = css`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.5rem;
  color: ${colors.muted};
  font-size: 0.9375rem;
`;

/** The group-support badge: muted once read, in the brand colour while unread. */
export const readBadge = groupBadge;
export const unreadBadge = `${groupBadge} ${badgeKinds.progress}`;

export const actions = css`
  display: flex;
  flex-wrap: wrap;
  gap: 0.75rem;
  margin-top: 0.75rem;
`;

export const notice = css`
  color: ${colors.muted};
`;

export const error = css`
  color: ${colors.danger};
`;
