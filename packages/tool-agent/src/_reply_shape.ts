import { ModelError } from './model_adapter.ts';

/**
 * Checks that a whole (not streamed) answer has the shape of the provider's reply, before its
 * fields are read: a proxy or a wrong base URL may answer HTTP 200 with `null`, a list or a
 * page's JSON, which would otherwise end the turn as an empty answer or a `TypeError`.
 *
 * @param reply What the SDK returned.
 * @param expected The provider, the model, and the list field the reply must carry (`content`, `choices`, `output`).
 * @throws {ModelError} When the reply is not an object with that list.
 *
 * @example
 * ```ts
 * import { assertReplyShape } from './_reply_shape.ts';
 *
 * assertReplyShape({ content: [] }, { provider: 'anthropic', model: 'claude-test', field: 'content' });
 * ```
 */
export function assertReplyShape(reply: unknown, expected: { provider: string; model: string; field: string }): void {
  const { provider, model, field } = expected;
  if (typeof reply === 'object' && reply !== null && Array.isArray((reply as Record<string, unknown>)[field])) return;
  const got =
    reply === null ? 'null' : Array.isArray(reply) ? 'a list' : typeof reply === 'object' ? 'an object' : typeof reply;
  throw new ModelError(
    `The ${provider} model "${model}" answered HTTP 200 with ${got} without "${field}": not what the ${provider} API replies. Check the base URL (a proxy or another API may be answering).`,
  );
}
