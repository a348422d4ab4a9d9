import { entityKey, type HUB_METHODS } from '../../../contract/hub.ts';
import type { ActorName, Fixture, ServerName } from './walk-fixtures.ts';

/** A hub method's name as the client invokes it (contract/hub.ts). */
export type HubMethodName = (typeof HUB_METHODS)[keyof typeof HUB_METHODS];

/**
 * What each hub method may do for whom, walked with the official SignalR client. Keyed by the
 * contract's method names, so a new hub method does not compile until it is walked here.
 */
export const HUB_METHOD_RULES: Record<HubMethodName, string> = {
  SubscribeToEntity:
    'follows an entity: served to those who may see it (HUB_SUBSCRIPTION_TARGETS), refused with Forbidden to everyone else, who then hear nothing of it',
  UnsubscribeFromEntity:
    "lets go of the caller's own subscription: served to anyone, and another caller's subscription goes on",
  SendMessage: 'kept for old clients and does nothing: served to anyone, and nothing changes',
  Ping: "the client's liveness check: served to anyone at once with no result, and nothing changes",
};

/** An entity of the owner's that the walk subscribes to as every caller. */
export interface SubscriptionTarget {
  aim: string;
  server: ServerName;
  key(fx: Fixture): string;
  /** Who may follow it; the callers walked who may not. */
  allowed: ActorName[];
  refused: ActorName[];
}

export const HUB_SUBSCRIPTION_TARGETS: SubscriptionTarget[] = [
  {
    aim: "the owner's chat, accepted by the counsellor",
    server: 'barn',
    key: (fx) => entityKey('Conversation', fx.barn.ownerChat),
    allowed: ['owner', 'counsellor'],
    refused: ['other', 'participant', 'colleague', 'leader', 'admin'],
  },
  {
    aim: "the owner's mail, answered by the counsellor",
    server: 'barn',
    key: (fx) => entityKey('Conversation', fx.barn.ownerMail),
    allowed: ['owner', 'counsellor'],
    refused: ['other', 'participant', 'colleague', 'leader', 'admin'],
  },
  {
    aim: "the owner's contact, whom no counsellor needs",
    server: 'barn',
    key: (fx) => entityKey('Contact', fx.barn.ownerContact),
    allowed: ['owner'],
    refused: ['other', 'participant', 'counsellor', 'colleague', 'leader', 'admin'],
  },
  {
    aim: "the owner's running meeting, shared with the group and its leader",
    server: 'gruppstod',
    key: (fx) => entityKey('Meeting', fx.gruppstod.meeting),
    allowed: ['owner', 'peer', 'leader'],
    refused: ['other', 'counsellor', 'admin'],
  },
  {
    aim: "the group chat of the owner's meeting",
    server: 'gruppstod',
    key: (fx) => entityKey('Conversation', fx.gruppstod.groupConversation),
    allowed: ['owner', 'peer', 'leader'],
    refused: ['other', 'counsellor', 'admin'],
  },
  {
    aim: 'a meeting its leader deleted: nobody follows it',
    server: 'gruppstod',
    key: (fx) => entityKey('Meeting', fx.gruppstod.gone.meeting),
    allowed: [],
    refused: ['owner', 'peer', 'other', 'counsellor', 'leader', 'admin'],
  },
];
