import type { AssistantAnswer, AssistantContent } from '../../contract/assistant.ts';

/** Lower case, letters and digits only, single spaces: "Jag är LEDSEN!!" -> " jag är ledsen ". */
export function normalise(text: string): string {
  const words = text
    .toLocaleLowerCase('sv-SE')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return ` ${words} `;
}

/**
 * Matches a free-text question to a topic by its keywords, on the server and without any outside
 * service. A keyword counts when it appears inside the question (Swedish compounds: "jätteledsen"
 * holds "ledsen"); the topic with the most keywords wins, and on a tie the one listed first (the file
 * lists the most urgent topics first). No match answers the counsellor paths.
 */
export function matchQuestion(content: AssistantContent, question: string): AssistantAnswer {
  const text = normalise(question);
  let best: { index: number; hits: number } | null = null;
  content.topics.forEach((topic, index) => {
    const hits = topic.keywords.filter((keyword) => {
      const word = normalise(keyword).trim();
      return word.length > 0 && text.includes(word);
    }).length;
    if (hits > 0 && (!best || hits > best.hits)) best = { index, hits };
  });
  const found = best as { index: number; hits: number } | null;
  const topic = found ? content.topics[found.index] : undefined;
  if (!topic) {
    return { topicId: null, ...content.unmatched, version: content.version };
  }
  return { topicId: topic.id, answer: topic.answer, nextSteps: topic.nextSteps, version: content.version };
}
