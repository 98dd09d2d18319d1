/**
 * A typed key for a session service: something one package provides and another finds
 * through the context without importing it (a model client, a task store, …).
 *
 * @example
 * ```ts
 * import { createSession, serviceKey } from '@toolshed/core';
 * const cwd = process.cwd();
 *
 * interface Clock { now(): number }
 * const clockKey = serviceKey<Clock>('example.clock');
 * const session = await createSession({ cwd, services: [[clockKey, { now: Date.now }]] });
 * ```
 */
export interface ServiceKey<T> {
  readonly id: string;
  /** Type carrier only; never set. */
  readonly __type?: T;
}

/**
 * Makes a {@linkcode ServiceKey}. Two keys with the same id find the same service, so a key
 * can be declared in two packages that do not import each other.
 *
 * @param id A unique, dotted name such as `toolshed.modelClient`.
 * @returns The key.
 *
 * @example
 * ```ts
 * import { serviceKey } from '@toolshed/core';
 *
 * const modelClientKey = serviceKey<{ complete(prompt: string): Promise<string> }>('toolshed.modelClient');
 * ```
 */
export function serviceKey<T>(id: string): ServiceKey<T> {
  return { id };
}

/** The services of one session, read by tools through `ctx.services`. */
export interface Services {
  get<T>(key: ServiceKey<T>): T | undefined;
  set<T>(key: ServiceKey<T>, value: T): void;
  has(key: ServiceKey<unknown>): boolean;
}

/**
 * A {@linkcode Services} backed by a Map.
 *
 * @param entries Initial services.
 * @returns The registry.
 *
 * @example
 * ```ts
 * import { createServices, serviceKey } from '@toolshed/core';
 *
 * const services = createServices([[serviceKey<number>('answer'), 42]]);
 * services.get(serviceKey<number>('answer')); // 42
 * ```
 */
export function createServices(entries: Iterable<readonly [ServiceKey<unknown>, unknown]> = []): Services {
  const map = new Map<string, unknown>();
  for (const [key, value] of entries) map.set(key.id, value);
  return {
    get: <T>(key: ServiceKey<T>) => map.get(key.id) as T | undefined,
    set: (key, value) => void map.set(key.id, value),
    has: (key) => map.has(key.id),
  };
}
