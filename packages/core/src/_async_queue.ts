/**
 * A push-based async iterable: producers `push`, one consumer iterates until `end`.
 * Written here because the few libraries that do this bring more than the 30 lines it takes.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #waiting: ((r: IteratorResult<T>) => void) | undefined;
  #ended = false;
  #onReturn: (() => void) | undefined;

  /** @param onReturn Called once if the consumer stops early (`break` out of `for await`). */
  constructor(onReturn?: () => void) {
    this.#onReturn = onReturn;
  }

  push(item: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting({ value: item, done: false });
    } else {
      this.#items.push(item);
    }
  }

  end(): void {
    this.#ended = true;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.#items.length) return Promise.resolve({ value: this.#items.shift()!, done: false });
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.#waiting = resolve));
      },
      return: () => {
        const stoppedEarly = !this.#ended;
        this.#items = [];
        this.end();
        if (stoppedEarly) this.#onReturn?.();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
