// The server-side verdict of `npm run chaos`: what was written against what PostgreSQL holds.
import type { Sent } from './chaos-client.ts';

export interface StoredMessage {
  id: number;
  conversation_id: number;
  message: string;
}

/** `{sender} #{seq} hej`: every message the chaos run writes; nothing else is judged. */
const WRITTEN = /^(\S+) #(\d+) hej$/;

export interface Verdict {
  lost: number;
  duplicated: number;
  disordered: number;
  discrepancies: string[];
}

/**
 * Lost: written and answered, but not stored. Duplicated: stored more than once. Out of order: a
 * sender's message stored (by id) after a later one of the same sender in the same conversation.
 */
export function verdictOf(written: readonly Sent[], stored: readonly StoredMessage[]): Verdict {
  const ours = [...stored].filter((r) => WRITTEN.test(r.message)).sort((a, b) => a.id - b.id);
  const discrepancies: string[] = [];
  const found = new Map<string, StoredMessage[]>();
  for (const r of ours) found.set(r.message, [...(found.get(r.message) ?? []), r]);
  let lost = 0;
  for (const m of written) {
    const copies = found.get(m.text) ?? [];
    if (copies.length === 0) {
      lost++;
      discrepancies.push(`lost: "${m.text}" in conversation ${m.conversationId}`);
    } else if (copies.some((c) => c.conversation_id !== m.conversationId)) {
      lost++;
      discrepancies.push(`lost: "${m.text}" stored in another conversation than ${m.conversationId}`);
    }
  }
  let duplicated = 0;
  for (const [text, copies] of found) {
    if (copies.length > 1) {
      duplicated += copies.length - 1;
      discrepancies.push(`duplicated ${copies.length} times: "${text}"`);
    }
  }
  let disordered = 0;
  const lastSeq = new Map<string, number>();
  for (const r of ours) {
    const [, sender, seqText] = WRITTEN.exec(r.message)!;
    const seq = Number(seqText);
    const key = `${r.conversation_id}:${sender}`;
    const before = lastSeq.get(key) ?? 0;
    if (seq < before) {
      disordered++;
      discrepancies.push(
        `out of order in conversation ${r.conversation_id}: "${r.message}" after #${before}`,
      );
    }
    lastSeq.set(key, Math.max(seq, before));
  }
  return { lost, duplicated, disordered, discrepancies };
}
