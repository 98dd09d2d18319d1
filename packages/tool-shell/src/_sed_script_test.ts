import { describe, expect, test } from 'vitest';
import { sedScriptFiles } from './_sed_script.ts';

describe('sedScriptFiles', () => {
  test.each([
    ['1!w out', [], ['out']],
    ['$!W out', [], ['out']],
    ['s|a|b|w log', [], ['log']],
    ['s/a/b/gIw log', [], ['log']],
    ['\\%a%w out', [], ['out']],
    ['/x/,+2w out', [], ['out']],
    ['0,/re/w out', [], ['out']],
    ['1~2w a;p', [], ['a;p']],
    ['1!r in', ['in'], []],
    ['\\,a,R in', ['in'], []],
    ['s/a/b/w /dev/stdout', [], []],
    ['r /dev/stdin', [], []],
    // GNU sed reads a bracket expression whole: its `/` does not end the address or the regex.
    ['/[/a]/w out', [], ['out']],
    ['\\%[%i]%r in', ['in'], []],
    ['s/[[:alpha:]/]/x/w out', [], ['out']],
    ['s/[]/]/x/;s/[^]/]/y/w out', [], ['out']],
  ])('%s reads %j and writes %j', (script, reads, writes) => {
    expect(sedScriptFiles(script)).toEqual({ reads, writes, problem: undefined });
  });

  test.each([
    's/hello/world/g',
    ':a;N;$!ba;s/\\n/ /g',
    '/start/,/end/{s/a/b/;p}',
    '1i header w x',
    'a\\\nw x',
    'y/abc/xyz/',
    's#w#e#g; /^$/d',
    '# w x\np',
    'b end;p;:end',
    's/[/]/_/g',
    '/^[^]/]*$/p',
    's/[\\/]/x/; s|[|]|y|',
    's/x/[/',
  ])('%s opens nothing and runs nothing', (script) => {
    expect(sedScriptFiles(script)).toEqual({ reads: [], writes: [], problem: undefined });
  });

  test.each([
    ['1e touch x', 'runs a command'],
    ['$e', 'runs a command'],
    ['s|a|b|e', 'the `e` flag'],
    ['s/a/b', 'does not end'],
    ['/a', 'does not end'],
    ['1k', 'does not know (`k`)'],
    ['b end foo', 'where a command ends'],
    ['w', 'names no file'],
    ['s/[/x/', 'does not end'],
    ['s/[[:alpha:/]/x/', 'does not end'],
    ['s][/]]x]', 'does not end'],
  ])('%s is a problem: %s', (script, why) => {
    expect(sedScriptFiles(script).problem).toContain(why);
  });
});
