import type { JsonSchema } from './tool.ts';
import { serviceKey } from './services.ts';

/**
 * A question for the person at the keyboard: a message and, for a form, the JSON Schema of a
 * flat object whose properties are strings, numbers, integers, booleans or enums (MCP
 * elicitation's `requestedSchema`). Defaults in the schema are what the form starts with.
 */
export interface AskUserRequest {
  /** Who asks, for the person to judge: `MCP server "github"`, `AskUserQuestion`. */
  source: string;
  /** What is asked, in the asker's words. */
  message: string;
  /** The answer's shape; none: a plain yes (accept) or no (decline). */
  schema?: JsonSchema;
  /**
   * A page the asker wants the person to open (MCP's URL-mode elicitation: a sign-in, a payment),
   * also written in `message`. Accept means the person consents to open it: a UI may then open
   * it, never before the answer, and never fetches it to show a preview.
   */
  url?: string;
  /** Aborted when the answer is no longer wanted (the call ended, the session closed). */
  signal?: AbortSignal;
}

/**
 * The person's answer: `accept` with the form's values (fields left empty may be missing;
 * the asker fills them from the schema's defaults), `decline` (said no), or `cancel` (closed
 * the question without answering).
 */
export type AskUserResponse =
  | { action: 'accept'; content?: Record<string, unknown> }
  | { action: 'decline' }
  | { action: 'cancel' };

/**
 * The session's channel to its user, found through `ctx.services.get(askUserKey)` (or a
 * family's `api.services`): an MCP server's elicitation, a sampling permission, the
 * AskUserQuestion tool. The integrator (or the CLI, in its terminal) provides it; without one,
 * askers treat every question as declined.
 *
 * @example
 * ```ts
 * import { type AskUser, askUserKey, createSession } from '@toolshed/core';
 * const cwd = process.cwd();
 *
 * declare function confirm(question: string): Promise<boolean>;
 *
 * const askUser: AskUser = { ask: async ({ message }) => (await confirm(message) ? { action: 'accept', content: {} } : { action: 'decline' }) };
 * const session = await createSession({ cwd, services: [[askUserKey, askUser]] });
 * ```
 */
export interface AskUser {
  ask(request: AskUserRequest): Promise<AskUserResponse>;
}

/**
 * The service key of the session's {@linkcode AskUser}.
 *
 * @example
 * ```ts
 * import { askUserKey, type FamilySetupApi, type JsonSchema } from '@toolshed/core';
 * declare const api: FamilySetupApi;
 * declare const schema: JsonSchema;
 *
 * const askUser = api.services.get(askUserKey);
 * const answer = askUser ? await askUser.ask({ source: 'MCP server "x"', message: 'Your name?', schema }) : { action: 'decline' };
 * ```
 */
export const askUserKey = serviceKey<AskUser>('toolshed.askUser');
