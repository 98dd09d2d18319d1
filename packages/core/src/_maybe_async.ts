/**
 * A value, or a promise of it: what a step returns that is synchronous most of the time. Awaiting
 * only what is a promise (see {@linkcode isThenable}) saves an async call and a turn of the
 * microtask queue on the per-call path (the pipeline and the permission decision run per call).
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * Whether a value is a promise (or any thenable) to await.
 *
 * @param value What a tool's hook or a step returned.
 * @returns Whether it has a `then` method.
 *
 * @example
 * ```ts
 * import { isThenable } from './_maybe_async.ts';
 * declare function check(): boolean | Promise<boolean>;
 *
 * async function run(): Promise<boolean> {
 *   const checked = check();
 *   return isThenable(checked) ? await checked : checked;
 * }
 * ```
 */
export function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
