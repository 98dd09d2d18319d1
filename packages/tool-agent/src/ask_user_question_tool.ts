import { askUserKey, buildTool, ToolshedError, type JsonSchema } from '@toolshed/core';
import { z } from 'zod';

declare module '@toolshed/core' {
  interface ToolshedErrorCodes {
    /** AskUserQuestion got no answer (no one to ask, or the person declined). */
    question_unanswered: true;
  }
}

/** Error code of a question nobody answered (no one to ask, declined, cancelled). */
export const QUESTION_UNANSWERED = 'question_unanswered' as const;

const optionSchema = z.strictObject({
  label: z.string().min(1).max(60).describe('The choice as shown, in a few words'),
  description: z.string().describe('What choosing it means'),
});

const questionSchema = z.strictObject({
  question: z.string().min(1).describe('The whole question, ending with "?"'),
  header: z
    .string()
    .min(1)
    .max(12)
    .describe('A very short label for the question (at most 12 characters), such as "Database"'),
  options: z
    .array(optionSchema)
    .min(2)
    .max(4)
    .describe('2 to 4 choices; the user can always answer in their own words instead'),
  multiSelect: z.boolean().default(false).describe('Whether several choices may be picked'),
});

/** Input of {@linkcode askUserQuestionTool}: Claude Code's fields. */
export const askUserQuestionInput = z.strictObject({
  questions: z.array(questionSchema).min(1).max(4).describe('1 to 4 questions to ask at once'),
});

/** One answer: the question and the label(s) chosen, or the user's own words. */
export interface QuestionAnswer {
  question: string;
  answer: string;
}

/**
 * AskUserQuestion: asks the user 1–4 multiple-choice questions through the session's
 * {@linkcode askUserKey} service (the integrator's callback, or the CLI's terminal) and gives the
 * model the answers. Each question becomes one field of a form: an enum of the option labels (a
 * list of them when `multiSelect`), plus a free-text field for an answer in the user's own words.
 * With no one to ask, or a declined form, the result is an error that says so. Never
 * concurrency-safe: one question at a time.
 *
 * @example
 * ```ts
 * import { askUserKey, createSession } from '@toolshed/core';
 * import { askUserQuestionTool } from '@toolshed/tool-agent';
 * declare const cwd: string;
 *
 * const askUser = { ask: async () => ({ action: 'accept' as const, content: { q1: 'PostgreSQL' } }) };
 * const session = await createSession({ cwd, tools: [askUserQuestionTool], services: [[askUserKey, askUser]] });
 * ```
 */
export const askUserQuestionTool = buildTool({
  name: 'AskUserQuestion',
  searchHint: 'ask the user a question choose between options clarify',
  description:
    "Asks the user 1 to 4 multiple-choice questions and returns the answers. Use it when a decision is the user's (a preference, an ambiguous requirement, a trade-off) rather than guessing. Give each question a short header and 2 to 4 options with a description each; the user may also answer in their own words.",
  inputSchema: askUserQuestionInput,
  // Asking is what the tool is for; the question itself is the permission prompt.
  checkPermissions: () => ({ behavior: 'allow' }),
  async call({ questions }, ctx) {
    const askUser = ctx.services.get(askUserKey);
    if (!askUser)
      throw new ToolshedError(
        QUESTION_UNANSWERED,
        'There is no one to ask in this session (no askUser service), so the questions were not asked. Decide with what you know and say which assumptions you made.',
      );
    const properties: Record<string, JsonSchema> = {};
    questions.forEach((q, i) => {
      const labels = q.options.map((o) => o.label);
      const described = q.options.map((o) => `${o.label}: ${o.description}`).join('; ');
      properties[`q${i + 1}`] = q.multiSelect
        ? {
            type: 'array',
            title: q.header,
            description: `${q.question} (${described})`,
            items: { type: 'string', enum: labels },
          }
        : { type: 'string', title: q.header, description: `${q.question} (${described})`, enum: labels };
      properties[`q${i + 1}_other`] = {
        type: 'string',
        title: `${q.header}: other`,
        description: `Or answer "${q.question}" in your own words`,
      };
    });
    const message =
      questions.length === 1
        ? questions[0]!.question
        : `${questions.length} questions: ${questions.map((q) => q.header).join(', ')}`;
    const response = await askUser.ask({
      source: 'AskUserQuestion',
      message,
      schema: { type: 'object', properties },
      signal: ctx.signal,
    });
    if (response.action !== 'accept') {
      throw new ToolshedError(
        QUESTION_UNANSWERED,
        `The user ${response.action === 'decline' ? 'declined to answer' : 'closed the questions without answering'}. Do not ask again right away; go on with what you know, or ask what they would like instead.`,
      );
    }
    const content = response.content ?? {};
    const answers: QuestionAnswer[] = questions.map((q, i) => {
      const own = content[`q${i + 1}_other`];
      const picked = content[`q${i + 1}`];
      const chosen = Array.isArray(picked) ? picked.map(String).join(', ') : typeof picked === 'string' ? picked : '';
      return {
        question: q.question,
        answer: typeof own === 'string' && own.trim() ? own.trim() : chosen || '(no answer)',
      };
    });
    return { data: answers };
  },
  mapResult: (answers: QuestionAnswer[]) =>
    `The user answered:\n${answers.map((a) => `- "${a.question}" → ${a.answer}`).join('\n')}\nGo on with these answers in mind.`,
});
