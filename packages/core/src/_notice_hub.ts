import type { SessionEvent } from './session_types.ts';

/** How loud a session notice is. */
export type NoticeLevel = 'info' | 'warn' | 'error';

/**
 * A session's notices: kept for `session.notices()`, and sent as `notice` events to the turns
 * running when they are raised (a failed context change, a broken block stream), so a `stream`
 * consumer sees them in order.
 *
 * @example
 * ```ts
 * import { NoticeHub } from './_notice_hub.ts';
 *
 * const hub = new NoticeHub(['A settings warning']);
 * const detach = hub.attach((event) => console.log(event));
 * hub.notice('error', 'A family failed to set up'); // logged, and kept
 * detach();
 * hub.list().length; // 2
 * ```
 */
export class NoticeHub {
  readonly #notices: { level: NoticeLevel; message: string }[];
  readonly #turns = new Set<(event: SessionEvent) => void>();

  /** @param warnings Warnings raised before the session existed (the settings files'). */
  constructor(warnings: readonly string[] = []) {
    this.#notices = warnings.map((message) => ({ level: 'warn' as const, message }));
  }

  /** Keeps a notice and sends it to every running turn. */
  notice(level: NoticeLevel, message: string): void {
    this.#notices.push({ level, message });
    for (const emit of this.#turns) emit({ type: 'notice', level, message });
  }

  /** Sends later notices to a running turn's events, until the returned function is called. */
  attach(emit: (event: SessionEvent) => void): () => void {
    this.#turns.add(emit);
    return () => void this.#turns.delete(emit);
  }

  /** Every notice so far, oldest first (a copy). */
  list(): { level: NoticeLevel; message: string }[] {
    return [...this.#notices];
  }
}
