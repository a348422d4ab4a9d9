import type { ProtectedEntry, PublicEntry } from './walk-entry.ts';

/**
 * The virtual assistant's routes (SPEC §6), registered only by the Assistent and Main servers. The
 * token is public; content and ask take only the assistant token: a child's or a staff member's token
 * is no key there (401, like none), so the assistant token is the "owner" that proves they answer.
 */
export const ASSISTANT_PUBLIC_ROUTES: PublicEntry[] = [
  {
    route: 'POST /portal/api/assistant/token',
    server: 'assistent',
    public: 'the public assistant token of SPEC §6: anyone may ask the assistant (limited per address)',
    call: () => ({ path: '/portal/api/assistant/token' }),
    status: 200,
  },
];

const NO_KEY = { owner: { status: 401 }, counsellor: { status: 401 }, admin: { status: 401 } } as const;

export const ASSISTANT_ROUTES: ProtectedEntry[] = [
  {
    route: 'GET /portal/api/assistant/content',
    server: 'assistent',
    call: () => ({ path: '/portal/api/assistant/content' }),
    owner: { as: 'assistant', status: 200, sees: () => '"topics"' },
    others: NO_KEY,
  },
  {
    route: 'POST /portal/api/assistant/ask',
    server: 'assistent',
    call: () => ({ path: '/portal/api/assistant/ask', json: { question: 'Jag blir mobbad i skolan' } }),
    owner: { as: 'assistant', status: 200, sees: () => '"topicId":"skola-och-kompisar"' },
    others: NO_KEY,
  },
];
