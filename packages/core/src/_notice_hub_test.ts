import { expect, test } from 'vitest';
import { NoticeHub } from './_notice_hub.ts';
import type { SessionEvent } from './session_types.ts';

test('a notice is kept and sent to the turns attached when it is raised, not to detached ones', () => {
  const hub = new NoticeHub(['from settings']);
  const first: SessionEvent[] = [];
  const second: SessionEvent[] = [];
  const detachFirst = hub.attach((e) => first.push(e));
  hub.attach((e) => second.push(e));
  hub.notice('error', 'one');
  detachFirst();
  hub.notice('info', 'two');
  expect(first).toEqual([{ type: 'notice', level: 'error', message: 'one' }]);
  expect(second.map((e) => (e.type === 'notice' ? e.message : ''))).toEqual(['one', 'two']);
  const list = hub.list();
  expect(list).toEqual([
    { level: 'warn', message: 'from settings' },
    { level: 'error', message: 'one' },
    { level: 'info', message: 'two' },
  ]);
  list.pop();
  expect(hub.list()).toHaveLength(3); // a copy
});
