import { Link } from 'wouter';
import { formatCalendarDate } from '../../client-kit/time/format-time.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { useApi } from '../data/index.ts';
import { primaryButton, secondaryButton } from '../styles/controls.ts';
import { useLoad, usePeerBoard } from './hooks.ts';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

/**
 * 'Andra ungas inlägg' for a signed-out visitor: what it is and the way in, but no posts. Posts are
 * read with an account only, so what a child writes is not open to anyone on the internet.
 */
export function PeerBoardSignedOut({ onLogin, registerHref }: { onLogin: () => void; registerHref: string }) {
  return (
    <section className={s.section} aria-labelledby="peer-board-heading">
      <h2 id="peer-board-heading">{T.boardHeading}</h2>
      <p>{T.signedOutBoard}</p>
      <div className={s.actions}>
        <button type="button" className={primaryButton} onClick={onLogin}>
          {T.signedOutLogin}
        </button>
        <Link href={registerHref} className={secondaryButton}>
          {T.signedOutCreateAccount}
        </Link>
      </div>
    </section>
  );
}

/** 'Andra ungas inlägg' on the Peers start page: published posts, newest first, live. */
export function PeerBoard() {
  const api = useApi();
  const posts = usePeerBoard();
  const result = useLoad(() => api.loadPeerBoard(), 'board');
  const loading = result === null && (posts === undefined || posts.length === 0);
  return (
    <section className={s.section} aria-labelledby="peer-board-heading">
      <h2 id="peer-board-heading">{T.boardHeading}</h2>
      <p>{T.boardIntro}</p>
      <Link href="/mina-sidor/nytt-inlagg" className={primaryButton}>
        {T.writePost}
      </Link>
      {result === 'offline' && <p role="status">{T.offline}</p>}
      {result === 'failed' && <p role="alert">{T.loadFailed}</p>}
      {loading ? (
        <Spinner label={T.loadingBoard} />
      ) : (
        <div aria-live="polite">
          {!posts || posts.length === 0 ? (
            <p>{T.noPosts}</p>
          ) : (
            <ul className={s.list} aria-label={T.boardHeading}>
              {posts.map((p) => (
                <li key={p.id} className={s.item}>
                  <Link href={`/mina-sidor/inlagg/${p.id}`} className={s.itemLink}>
                    {p.subject}
                  </Link>
                  <span className={s.meta}>{T.by(p.authorName)}</span>
                  <span className={s.meta}>{formatCalendarDate(p.publishedDate ?? p.createdDate)}</span>
                  <span className={s.badge}>{T.replyCount(p.replyCount)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
