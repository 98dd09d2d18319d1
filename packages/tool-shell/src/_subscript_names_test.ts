import { beforeAll, expect, test } from 'vitest';
import { analyzeCommand, loadBashParser } from './bash_parser.ts';
import { subscriptInjection } from './_subscript_names.ts';

beforeAll(async () => {
  await loadBashParser();
});

const found = (command: string) => subscriptInjection(analyzeCommand(command).commands);

test('a quoted variable name whose subscript holds an expansion is found, for each builtin that names variables', () => {
  for (const command of [
    "printf -v 'x[$(touch f)]' %s 1",
    "read 'x[$(touch f)]' <<< 1",
    "mapfile -t 'x[`touch f`]' < a",
    "declare 'x[$(touch f)]=1'",
    "local 'x[$(touch f)]'",
    "unset 'x[$(touch f)]'",
    "test -v 'x[$(touch f)]'",
    "[ -v 'x[$(touch f)]' ]",
    "[[ -v 'x[$(touch f)]' ]]",
    "let 'x[$(touch f)]=1'",
    'echo ok; read "x[\\$(touch f)]" <<< 1',
    "wait -p 'x[$(touch f)]'",
    "getopts ab 'x[$(touch f)]'",
    "mapfile -C 'touch f' -c 1 x < a",
  ])
    expect(found(command), command).toMatch(/as arithmetic|callback/);
});

test('names without an expansion in a subscript, and other programs, are not', () => {
  for (const command of [
    'read -r line',
    'printf -v x %s 1',
    "printf '%s\\n' 'x[$(y)]'",
    "echo 'x[$(touch f)]'",
    'declare -a list=(1 2)',
    'test -v HOME',
    "grep 'a[$]' f",
    "read -p 'x[$(y)] ' name",
    'mapfile -t lines < a',
  ])
    expect(found(command), command).toBeUndefined();
});
