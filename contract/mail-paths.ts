import type { VariantFeatures } from './variant.ts';

/**
 * Where mail to a counsellor lives. SPEC §2's post routes (nytt-inlagg, inlagg) are mail in every
 * variant but Peers, where they are posts for other young people: there mail has routes
 * of its own, so it stays reachable. Shared by the UI's links and the worker's notices.
 */
export function mailPaths(features: Pick<VariantFeatures, 'peers'>) {
  const [newMail, thread] = features.peers ? ['nytt-meddelande', 'meddelande'] : ['nytt-inlagg', 'inlagg'];
  return {
    newMail: `/mina-sidor/${newMail}`,
    thread: (id: number | string) => `/mina-sidor/${thread}/${id}`,
  };
}
