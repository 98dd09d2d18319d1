import { describe, expect, test } from 'vitest';
import { arithmeticInjection } from './_arithmetic_injection.ts';

describe('arithmeticInjection', () => {
  test.each([
    ["x='a[$(touch f)]'; (( x ))", '`x`'],
    ["y='a[$(touch f)]'; x=y; echo $(( x ))", '`x`'],
    ['x="$(cat f)"; echo $[x]', '`x`'],
    ["x='a[$(touch f)]'; echo ${s:x}", '`x`'],
    ["x='a[$(touch f)]'; a[x]=1", '`x`'],
    ['mapfile -t v < f; (( v ))', '`v`'],
    ['printf -v n %s "$1"; let n', '`n`'],
    ['for w in $(cat f); do (( w )); done', '`w`'],
    ["x='a[$(touch f)]'; [[ -v $x ]]", '`x`'],
    ['(( $1 + 1 ))', 'a positional parameter'],
    ['read -r x < f; echo ${!x}', '`x`'],
    ['read -r x < f; echo ${!x:-d}', '`x`'],
    ['read -r x < f; echo ${@:x} ${*:1:x}', '`x`'],
    ['read -r x < f; a=([x]=1)', '`x`'],
    ['read -r x < f; a+=(1 [x]=2)', '`x`'],
    ["read -r x < f; unset 'a[x]'", '`x`'],
    ['read -r x < f; read "a[x]" < g', '`x`'],
    ["read -r x < f; printf -v 'a[x]' 1", '`x`'],
    ['read -r x < f; a[x]+=1', '`x`'],
    [": ${x:='a[$(touch f)]'}; (( x ))", '`x`'],
    [": ${x='a[$(touch f)]'}; (( x ))", '`x`'],
    // wc prints a file operand's name; `a || b | wc -l` prints what a prints.
    ['n=$(wc -l f); echo $((n))', '`n`'],
    ['n=$(cat f || true | wc -l); echo $((n))', '`n`'],
    ['n=$(cat f; wc -l < g); echo $((n))', '`n`'],
    ['n=$(cat f)$(wc -l < g); echo $((n))', '`n`'],
  ])('%s evaluates %s', (command, what) => {
    expect(arithmeticInjection(command)).toContain(`bash evaluates ${what} as arithmetic`);
  });

  test.each([
    'n=0; n=$((n + 1)); echo $n',
    'for i in 1 2 3; do echo $((i * 2)); done',
    'for i in {1..5}; do (( i > 2 )) && echo $i; done',
    '[[ $? -eq 0 ]] && echo ok',
    'x=\'a[$(touch f)]\'; echo "$x"',
    'echo "${HOME:-/tmp}" ${#PATH}',
    'read -r line < f; echo "$line"',
    'x=5; [[ $x -gt 3 ]]',
    ': ${n:=0}; (( n++ ))',
    'n=$(wc -l < src/a.ts); echo $((n + 1))',
    'n="$(grep -v x f | wc -l)"; (( n > 2 ))',
    'x=`git rev-list --count HEAD`; echo $((x+1))',
    'j=$(nproc); echo $((j * 2))',
    'c=$(git rev-list --count main..HEAD 2>/dev/null); (( c > 0 ))',
    'read -r x < f; echo ${!PATH*} ${x:-none} "${arr[@]}"',
    'read -r x < f; grep -c \'a[0-9]\' g; echo "${x}"',
  ])('%s runs nothing a value holds', (command) => {
    expect(arithmeticInjection(command)).toBeUndefined();
  });

  test('${x@P} expands a value read as a prompt, which runs its $(…)', () => {
    expect(arithmeticInjection('read -r x < f; echo "${x@P}"')).toContain('bash expands `x` as a prompt');
  });
});
