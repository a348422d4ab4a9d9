import { Link } from 'wouter';
import { formatCalendarDate } from '../../client-kit/time/format-time.ts';
import { useApi } from '../data/index.ts';
import { primaryButton } from '../styles/controls.ts';
import { OwnItemState } from './item-state.tsx';
import { useLoad, useMyPeerPosts, useUnsentPeerPosts } from './hooks.ts';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

/** 'Mina inlägg' on my pages in Peers: own posts with their moderation state, and unsent ones. */
export function MyPeerPosts() {
  const api = useApi();
  const posts = useMyPeerPosts();
  const unsent = useUnsentPeerPosts();
  const result = useLoad(() => api.loadMyPeerPosts(), 'mine');
  const empty = (posts?.length ?? 0) === 0 && (unsent?.length ?? 0) === 0;
  return (
    <section id="inlagg" className={s.section} aria-labelledby="my-peer-posts-heading">
      <h2 id="my-peer-posts-heading">{T.myPostsHeading}</h2>
      <Link href="/mina-sidor/nytt-inlagg" className={primaryButton}>
        {T.writePost}
      </Link>
      {result === 'offline' && <p role="status">{T.offline}</p>}
      {result === 'failed' && <p role="alert">{T.loadFailed}</p>}
      <div aria-live="polite">
        {empty ? (
          <p>{T.noMyPosts}</p>
        ) : (
          <ul className={s.list} aria-label={T.myPostsHeading}>
            {unsent?.map((draft) => (
              <li key={draft.clientId} className={s.item}>
                <span className={s.itemLink}>{draft.subject}</span>
                <span className={s.badge}>{T.unsent}</span>
              </li>
            ))}
            {posts?.map((p) => (
              <li key={p.id} className={s.item}>
                <Link href={`/mina-sidor/inlagg/${p.id}`} className={s.itemLink}>
                  {p.subject}
                </Link>
                <span className={s.meta}>{formatCalendarDate(p.createdDate)}</span>
                {p.state === 'published' ? (
                  <span className={s.badge}>{T.replyCount(p.replyCount)}</span>
                ) : (
                  <OwnItemState state={p.state} rejectReason={p.rejectReason} />
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
