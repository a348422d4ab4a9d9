import { useId, useState, type FormEvent } from 'react';
import type { PeerModerationItem } from '../../contract/peers.ts';
import { PEER_REJECT_REASON_MAX_LENGTH, PEER_REPLY_MAX_LENGTH } from '../../contract/limits.ts';
import { useStaffApi } from '../api/staff-api.ts';
import {
  button,
  dangerButton,
  errorText,
  field,
  mutedText,
  noticeText,
  secondaryButton,
} from '../ui/styles.ts';
import { layout, queueEntry, queueList, section } from '../counsellor/counsellor.styles.ts';
import { MODERATION_TEXTS as T } from './texts.ts';
import { useModerationQueue, usePublishedPosts } from './use-moderation.ts';

/** 'Moderering': approve or reject young people's posts and replies, and reply as staff. */
export function ModerationConsole() {
  const queue = useModerationQueue();
  const [status, setStatus] = useState('');
  return (
    <div className={layout}>
      <h1 className="visually-hidden">{T.heading}</h1>
      <section className={section} aria-labelledby="moderation-queue-heading">
        <h2 id="moderation-queue-heading">{T.queueHeading}</h2>
        <p className={mutedText}>{T.intro}</p>
        <p role="status">
          {queue.items ? (queue.items.length ? T.waitingCount(queue.items.length) : T.empty) : ''}
          {status ? ` ${status}` : ''}
        </p>
        {queue.error && (
          <p className={errorText} role="alert">
            {queue.error}{' '}
            <button type="button" className={`${button} ${secondaryButton}`} onClick={queue.reload}>
              {T.retry}
            </button>
          </p>
        )}
        {!queue.items && !queue.error && <p className={mutedText}>{T.loading}</p>}
        {queue.items && queue.items.length > 0 && (
          <ul className={queueList} aria-label={T.queueHeading}>
            {queue.items.map((item) => (
              <ModerationEntry
                key={`${item.kind}-${item.id}`}
                item={item}
                onDone={(text) => {
                  setStatus(text);
                  queue.reload();
                }}
              />
            ))}
          </ul>
        )}
      </section>
      <StaffReply />
    </div>
  );
}

function ModerationEntry({ item, onDone }: { item: PeerModerationItem; onDone(text: string): void }) {
  const api = useStaffApi();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reasonId = useId();
  const headingId = useId();
  const what = item.kind === 'post' ? `${T.post} ${item.subject}` : T.replyTo(item.subject);
  const path = `/peers/${item.kind === 'post' ? 'posts' : 'replies'}/${item.id}`;

  async function decide(action: 'approve' | 'reject') {
    setBusy(true);
    setError(null);
    try {
      if (action === 'approve') await api.post(`${path}/approve`, {});
      else await api.post(`${path}/reject`, { reason: reason.trim() });
      onDone(action === 'approve' ? T.approved : T.rejected);
    } catch {
      setError(T.decideFailed);
      setBusy(false);
    }
  }

  function submitReject(e: FormEvent) {
    e.preventDefault();
    if (reason.trim()) void decide('reject');
  }

  return (
    <li className={queueEntry} aria-labelledby={headingId}>
      <h3 id={headingId}>{item.kind === 'post' ? `${T.post}: ${item.subject}` : T.replyTo(item.subject)}</h3>
      {item.reported && <p className={noticeText}>{T.reported}</p>}
      <p className={mutedText}>{T.by(item.authorName)}</p>
      <p>{item.text}</p>
      {rejecting ? (
        <form onSubmit={submitReject}>
          <div className={field}>
            <label htmlFor={reasonId}>{T.reason}</label>
            <textarea
              id={reasonId}
              value={reason}
              maxLength={PEER_REJECT_REASON_MAX_LENGTH}
              required
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
          <button type="submit" className={`${button} ${dangerButton}`} disabled={busy || !reason.trim()}>
            {T.sendReject}
          </button>{' '}
          <button
            type="button"
            className={`${button} ${secondaryButton}`}
            onClick={() => setRejecting(false)}
          >
            {T.cancel}
          </button>
        </form>
      ) : (
        <p>
          <button
            type="button"
            className={button}
            disabled={busy}
            aria-label={T.approveLabel(what)}
            onClick={() => void decide('approve')}
          >
            {T.approve}
          </button>{' '}
          <button
            type="button"
            className={`${button} ${dangerButton}`}
            disabled={busy}
            aria-label={T.rejectLabel(what)}
            onClick={() => setRejecting(true)}
          >
            {T.reject}
          </button>
        </p>
      )}
      {error && (
        <p className={errorText} role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

function StaffReply() {
  const api = useStaffApi();
  const posts = usePublishedPosts();
  const [postId, setPostId] = useState('');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const ids = { post: useId(), text: useId() };
  const chosen = postId || String(posts.items?.[0]?.id ?? '');

  async function send(e: FormEvent) {
    e.preventDefault();
    if (!chosen || !text.trim()) return;
    setBusy(true);
    try {
      await api.post(`/peers/posts/${chosen}/replies`, { text: text.trim() });
      setText('');
      setStatus({ text: T.replySent, error: false });
    } catch {
      setStatus({ text: T.replyFailed, error: true });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className={section} aria-labelledby="staff-reply-heading">
      <h2 id="staff-reply-heading">{T.replyHeading}</h2>
      <p className={mutedText}>{T.replyIntro}</p>
      {posts.items && posts.items.length === 0 ? (
        <p>{T.noPosts}</p>
      ) : (
        <form onSubmit={(e) => void send(e)}>
          <div className={field}>
            <label htmlFor={ids.post}>{T.replyPost}</label>
            <select id={ids.post} value={chosen} onChange={(e) => setPostId(e.target.value)}>
              {posts.items?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.subject}
                </option>
              ))}
            </select>
          </div>
          <div className={field}>
            <label htmlFor={ids.text}>{T.replyText}</label>
            <textarea
              id={ids.text}
              value={text}
              maxLength={PEER_REPLY_MAX_LENGTH}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <button type="submit" className={button} disabled={busy || !text.trim() || !chosen}>
            {T.replySend}
          </button>
        </form>
      )}
      <p role={status?.error ? 'alert' : 'status'} className={status?.error ? errorText : undefined}>
        {status?.text ?? ''}
      </p>
    </section>
  );
}
