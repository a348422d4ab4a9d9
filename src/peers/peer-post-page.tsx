import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { PEER_REPLY_MAX_LENGTH } from '../../contract/limits.ts';
import type { PeerItemKind } from '../../contract/peers.ts';
import { formatCalendarDate } from '../../client-kit/time/format-time.ts';
import { Spinner } from '../../client-kit/spinner/spinner.tsx';
import { useApi } from '../data/index.ts';
import { ConfirmationDialog } from '../dialogs/confirmation-dialog.tsx';
import { showToast } from '../dialogs/toast-store.ts';
import { lengthRules } from '../writing/length-error.ts';
import { WritingForm } from '../writing/writing-form.tsx';
import { PageLayout } from '../header/page-layout.tsx';
import { DisplayNameGate } from './display-name-gate.tsx';
import { OwnItemState } from './item-state.tsx';
import { PeerTextField } from './peer-text-field.tsx';
import { useLoad, usePeerPost, usePeerReplies, useUnsentPeerReplies } from './hooks.ts';
import { PEER_TEXTS as T } from './texts.ts';
import * as s from './peers.styles.ts';

/** Route '/mina-sidor/inlagg/:id' in Peers: one post with its replies; back leads to my pages. */
export function PeerPostPage({ id }: { id: string }) {
  const postId = /^\d{1,15}$/.test(id) ? Number(id) : null;
  return (
    <PageLayout title={T.postFallbackTitle} backButton>
      {postId === null ? <p>{T.notFound}</p> : <Post postId={postId} />}
      <p>
        <Link href="/mina-sidor">{T.backToMyPages}</Link>
      </p>
    </PageLayout>
  );
}

function Post({ postId }: { postId: number }) {
  const api = useApi();
  const post = usePeerPost(postId);
  const replies = usePeerReplies(postId);
  const unsent = useUnsentPeerReplies(postId);
  const result = useLoad(() => api.loadPeerPost(postId), postId);
  const [reporting, setReporting] = useState<{ kind: PeerItemKind; id: number } | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  if (!post) {
    if (result === null || post === undefined) return <Spinner label={T.loading} />;
    return <p role="alert">{result === 'offline' || result === 'failed' ? T.loadFailed : T.notFound}</p>;
  }

  const ask = (kind: PeerItemKind, id: number) => {
    setReporting({ kind, id });
    setConfirmOpen(true);
  };
  const report = async (confirmed: boolean) => {
    const target = reporting;
    setReporting(null);
    if (!confirmed || !target) return;
    const answer = await api.reportPeerItem(target.kind, target.id, postId).catch(() => null);
    if (answer?.ok) showToast(T.reported, { kind: 'success' });
    else showToast(answer?.code === 'offline' ? T.reportOffline : T.reportFailed, { kind: 'error' });
  };

  const canReport = (item: { own: boolean; state: string }) => !item.own && item.state === 'published';
  return (
    <>
      <h1>{post.subject}</h1>
      <p className={s.meta}>
        {T.by(post.authorName)} · {T.written(formatCalendarDate(post.createdDate))}
      </p>
      {result === 'offline' && <p role="status">{T.offline}</p>}
      {post.own && (
        <div className={s.replyHead}>
          <OwnItemState state={post.state} rejectReason={post.rejectReason} />
        </div>
      )}
      <p className={s.postText}>{post.text}</p>
      {canReport(post) && (
        <button
          type="button"
          className={s.reportButton}
          aria-label={T.reportPostLabel}
          onClick={() => ask('post', post.id)}
        >
          {T.report}
        </button>
      )}
      <section className={s.section} aria-labelledby="peer-replies-heading">
        <h2 id="peer-replies-heading">{T.repliesHeading}</h2>
        <div aria-live="polite">
          {(replies?.length ?? 0) === 0 && (unsent?.length ?? 0) === 0 ? (
            <p>{T.noReplies}</p>
          ) : (
            <ul className={s.list} aria-label={T.repliesHeading}>
              {replies?.map((r) => (
                <li key={r.id} className={r.byStaff ? `${s.reply} ${s.staffReply}` : s.reply}>
                  <div className={s.replyHead}>
                    <strong>{r.byStaff ? T.counsellor : (r.authorName ?? '')}</strong>
                    <span className={s.meta}>{formatCalendarDate(r.createdDate)}</span>
                    {r.own && <OwnItemState state={r.state} rejectReason={r.rejectReason} />}
                  </div>
                  <p className={s.postText}>{r.text}</p>
                  {/* A counsellor's reply too: the report takes it back to moderation like any other. */}
                  {canReport(r) && (
                    <button
                      type="button"
                      className={s.reportButton}
                      aria-label={T.reportReplyLabel(r.byStaff ? T.counsellor : (r.authorName ?? ''))}
                      onClick={() => ask('reply', r.id)}
                    >
                      {T.report}
                    </button>
                  )}
                </li>
              ))}
              {unsent?.map((draft) => (
                <li key={draft.clientId} className={s.reply}>
                  <span className={s.badge}>{T.unsent}</span>
                  <p className={s.postText}>{draft.text}</p>
                </li>
              ))}
            </ul>
          )}
        </div>
        {post.state === 'published' && (
          <DisplayNameGate>
            <PeerReplyForm postId={postId} />
          </DisplayNameGate>
        )}
      </section>
      <ConfirmationDialog
        open={confirmOpen}
        onClose={() => setConfirmOpen(false)}
        onResult={(confirmed) => void report(confirmed)}
        title={T.reportTitle}
        text={T.reportText}
        yes={T.reportYes}
        no={T.reportNo}
      />
    </>
  );
}

interface ReplyValues {
  text: string;
}

function PeerReplyForm({ postId }: { postId: number }) {
  const api = useApi();
  const { register, handleSubmit, watch, reset, formState } = useForm<ReplyValues>({
    mode: 'onTouched',
    defaultValues: { text: '' },
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = async ({ text }: ReplyValues) => {
    const answer = await api.writePeerReply(postId, text.trim()).catch(() => null);
    const result = answer?.ok ? answer.value : null;
    if (!result) return showToast(T.sendFailed, { kind: 'error' });
    reset();
    if (result.status === 'sent') showToast(T.replySent, { kind: 'success' });
    else showToast(result.status === 'queued' ? T.queued : (result.message ?? T.waiting));
  };
  return (
    <WritingForm
      label={T.replyFormLabel}
      onSubmit={(e) => void handleSubmit(onSubmit)(e)}
      failed={null}
      submitting={isSubmitting}
      texts={{ send: T.replySend, sending: T.sending }}
    >
      <PeerTextField
        label={T.replyLabel}
        registration={register(
          'text',
          lengthRules(PEER_REPLY_MAX_LENGTH, { required: T.replyRequired, tooLong: T.replyTooLong }),
        )}
        error={errors.text}
        counter={T.replyCounter(watch('text').length)}
      />
    </WritingForm>
  );
}
