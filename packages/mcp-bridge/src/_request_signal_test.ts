import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { AbortWatch, RequestSignal } from './_request_signal.ts';

describe('RequestSignal', () => {
  test('aborts once, with its reason, and tells each listener not removed; throwIfAborted throws the reason', () => {
    const request = new RequestSignal(new AbortController().signal);
    const heard: unknown[] = [];
    const removed = () => heard.push('removed');
    request.signal.addEventListener('abort', () => heard.push(request.signal.reason));
    request.signal.addEventListener('abort', removed);
    request.signal.removeEventListener('abort', removed);
    request.signal.addEventListener('other' as 'abort', () => heard.push('other event'));
    expect(() => request.signal.throwIfAborted()).not.toThrow();
    request.abort(new Error('stop'));
    request.abort(new Error('again'));
    expect(request.signal.aborted).toBe(true);
    expect(heard).toEqual([new Error('stop')]);
    expect(() => request.signal.throwIfAborted()).toThrow('stop');
  });
});

describe('AbortWatch', () => {
  test('aborts every request in flight on a signal when it aborts, with its reason, and then stops listening to it', () => {
    const watch = new AbortWatch();
    const turn = new AbortController();
    const other = new AbortController();
    const [a, b] = [watch.request(turn.signal), watch.request(turn.signal)];
    const c = watch.request(other.signal);
    turn.abort(new Error('stop'));
    expect([a.signal.aborted, b.signal.aborted, c.signal.aborted]).toEqual([true, true, false]);
    expect(a.signal.reason).toEqual(new Error('stop'));
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    watch.done(a);
    watch.done(b);
    watch.done(c);
  });

  test('calls one after another on one signal share one listener, which a call on another signal removes once nothing runs on it', () => {
    const watch = new AbortWatch();
    const first = new AbortController();
    for (let i = 0; i < 20; i++) watch.done(watch.request(first.signal));
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(1);
    const second = new AbortController();
    const running = watch.request(first.signal);
    watch.done(watch.request(second.signal));
    // Still one request in flight on the first signal: its listener stays until that ends.
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(1);
    watch.done(running);
    expect(getEventListeners(first.signal, 'abort')).toHaveLength(0);
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(1);
    expect(watch.listening).toBe(1);
    watch.clear();
    expect(getEventListeners(second.signal, 'abort')).toHaveLength(0);
    expect(watch.listening).toBe(0);
  });

  test('a request on a signal that aborted already is aborted at once, and nothing listens to that signal', () => {
    const watch = new AbortWatch();
    const turn = new AbortController();
    turn.abort('gone');
    const request = watch.request(turn.signal);
    expect(request.signal.aborted).toBe(true);
    expect(request.signal.reason).toBe('gone');
    expect(getEventListeners(turn.signal, 'abort')).toHaveLength(0);
    watch.done(request);
  });
});
