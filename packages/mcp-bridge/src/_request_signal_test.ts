import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import { RequestSignal } from './_request_signal.ts';

describe('RequestSignal', () => {
  test("aborts with the call signal's reason, once, and tells each of its listeners", () => {
    const call = new AbortController();
    const request = new RequestSignal(call.signal);
    const heard: unknown[] = [];
    request.signal.addEventListener('abort', () => heard.push(request.signal.reason));
    request.signal.addEventListener('abort', () => heard.push('second'));
    expect(request.signal.aborted).toBe(false);
    expect(() => request.signal.throwIfAborted()).not.toThrow();
    call.abort(new Error('stop'));
    expect(request.signal.aborted).toBe(true);
    expect(heard).toEqual([new Error('stop'), 'second']);
    expect(() => request.signal.throwIfAborted()).toThrow('stop');
    call.signal.dispatchEvent(new Event('abort'));
    expect(heard).toHaveLength(2);
  });

  test('holds a listener on the call signal only until it is disposed: the call signal keeps none per request', () => {
    const call = new AbortController();
    const requests = Array.from({ length: 20 }, () => new RequestSignal(call.signal));
    for (const request of requests) request.signal.addEventListener('abort', () => {});
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(20);
    for (const request of requests) request.dispose();
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
    call.abort();
    expect(requests.every((r) => !r.signal.aborted)).toBe(true);
  });

  test('made from a signal that aborted already, it is aborted at once and listens to nothing', () => {
    const call = new AbortController();
    call.abort('gone');
    const request = new RequestSignal(call.signal);
    expect(request.signal.aborted).toBe(true);
    expect(request.signal.reason).toBe('gone');
    expect(() => request.signal.throwIfAborted()).toThrow();
    expect(getEventListeners(call.signal, 'abort')).toHaveLength(0);
  });

  test('a removed listener is not told, and listeners of other events are ignored', () => {
    const call = new AbortController();
    const request = new RequestSignal(call.signal);
    const heard: string[] = [];
    const gone = () => heard.push('removed one');
    request.signal.addEventListener('abort', gone);
    request.signal.removeEventListener('abort', gone);
    request.signal.addEventListener('other' as 'abort', () => heard.push('other event'));
    call.abort();
    expect(heard).toEqual([]);
  });
});
