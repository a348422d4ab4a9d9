import { Type, type Static } from '@sinclair/typebox';
import { ASSISTANT_NEXT_STEPS, ASSISTANT_QUESTION_MAX_LENGTH, type AssistantContent } from '../assistant.ts';

const NextSteps = Type.Array(Type.Union(ASSISTANT_NEXT_STEPS.map((step) => Type.Literal(step))), {
  minItems: 1,
  maxItems: ASSISTANT_NEXT_STEPS.length,
  uniqueItems: true,
});
const Words = (maxLength: number) => Type.String({ minLength: 1, maxLength });

const AssistantTopicSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z0-9-]{1,40}$' }),
    title: Words(60),
    keywords: Type.Array(Words(60), { minItems: 1, maxItems: 200 }),
    answer: Words(1000),
    more: Type.Optional(Words(4000)),
    nextSteps: NextSteps,
  },
  { additionalProperties: false },
);

/** The content file: checked on every load, so a broken edit is never served. */
export const AssistantContentSchema = Type.Object(
  {
    version: Words(40),
    greeting: Words(1000),
    unmatched: Type.Object({ answer: Words(1000), nextSteps: NextSteps }, { additionalProperties: false }),
    topics: Type.Array(AssistantTopicSchema, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);

/** The schema and the contract's interface describe the same shape. */
export const sameShape: Static<typeof AssistantContentSchema> extends AssistantContent ? true : false = true;

export const AssistantAskBody = Type.Object(
  { question: Type.String({ minLength: 1, maxLength: ASSISTANT_QUESTION_MAX_LENGTH }) },
  { additionalProperties: false },
);
