import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation } from 'wouter';
import { showToast } from '../dialogs/toast-store.ts';

/** What the data worker answers a new piece of writing it took. */
export interface WriteOutcome {
  status: 'sent' | 'queued' | 'waiting';
  /** The server's own words when it asked to wait. */
  message?: string | null;
}

export interface NewWritingTexts {
  sent: string;
  queued: string;
  waiting: string;
}

export interface NewWritingValues {
  subject: string;
  text: string;
}

/**
 * A new piece of writing with a subject and a text (a mail, a Peers post): the form, and what
 * follows the worker's answer. Sent: a toast and the new item, which replaces the form in the
 * history (going back leads to my pages, not to an emptied form). Kept in the outbox, offline or
 * because the server asked to wait: a toast and my pages; it goes out on its own. Refused or no
 * answer: the form stays as written, with its failure shown.
 */
export function useNewWriting<R extends WriteOutcome>({
  send,
  sentPath,
  texts,
}: {
  send: (values: NewWritingValues) => Promise<{ ok: true; value: R } | { ok: false } | null>;
  sentPath: (sent: Extract<R, { status: 'sent' }>) => string;
  texts: NewWritingTexts;
}) {
  const [, navigate] = useLocation();
  const [failed, setFailed] = useState(false);
  const form = useForm<NewWritingValues>({ mode: 'onTouched', defaultValues: { subject: '', text: '' } });
  const submit = form.handleSubmit(async ({ subject, text }) => {
    setFailed(false);
    const answer = await send({ subject: subject.trim(), text: text.trim() }).catch(() => null);
    const result = answer?.ok ? answer.value : null;
    if (result?.status === 'sent') {
      showToast(texts.sent, { kind: 'success' });
      // A generic R is not narrowed by its status: the check above is what the cast says.
      navigate(sentPath(result as Extract<R, { status: 'sent' }>), { replace: true });
    } else if (result?.status === 'queued' || result?.status === 'waiting') {
      showToast(result.status === 'queued' ? texts.queued : (result.message ?? texts.waiting));
      navigate('/mina-sidor', { replace: true });
    } else setFailed(true);
  });
  return { form, failed, submit };
}
