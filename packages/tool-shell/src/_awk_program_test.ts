import { describe, expect, test } from 'vitest';
import { awkProgramProblem } from './_awk_program.ts';

describe('awkProgramProblem', () => {
  test('programs that only read their input and print are accepted', () => {
    for (const program of [
      '{ print $1 }',
      '$3 > 100 { print $1 }',
      'NR>1',
      '{ if ($1 > max) max = $1 } END { print max }',
      '{ sum += $2 } END { print sum / NR }',
      '/a|b/ { print }',
      '{ print "a|b > c" }',
      '{ print $1, $2 }\nEND { print NR }',
      '{ print } # > comment',
      '{ getline; print }',
    ]) {
      expect(awkProgramProblem(program), program).toBeUndefined();
    }
  });

  test('a redirection is found behind a brace or semicolon in a string, a continued line or a comma', () => {
    for (const program of [
      'BEGIN { print "}" > "/tmp/out" }',
      'BEGIN { print ";" > "/tmp/out" }',
      'BEGIN { print "x" \\\n> "/tmp/out" }',
      'BEGIN { print "x",\n"y" > "/tmp/out" }',
      '{ print a["}"] > "/tmp/out" }',
      '{ printf("%s", $0) >> "/tmp/out" }',
      '{ x = $1 / 2 } { print > "/tmp/out" }',
    ]) {
      expect(awkProgramProblem(program), program).toBe('the awk program redirects output to a file');
    }
  });

  test('commands, pipes, getline from files, directives and what does not lex are refused', () => {
    expect(awkProgramProblem('BEGIN { system("id") }')).toContain('system()');
    expect(awkProgramProblem('BEGIN { "id" | getline }')).toContain('pipes');
    expect(awkProgramProblem('{ print |& "sh" }')).toContain('pipes');
    expect(awkProgramProblem('BEGIN { getline l < ".env" }')).toContain('getline <');
    expect(awkProgramProblem('@load "x"')).toContain('directive');
    expect(awkProgramProblem('BEGIN { extension("x.so", "f") }')).toContain('shared library');
    expect(awkProgramProblem('{ print "unterminated }')).toContain('unterminated string');
    expect(awkProgramProblem("{ print 'x' }")).toContain("character `'`");
  });

  test('a slash inside a bracket expression is refused, since awks disagree where the regex ends', () => {
    expect(awkProgramProblem('$0 ~ /[/]/ { print }')).toContain('bracket');
    expect(awkProgramProblem('$0 ~ /[[:alpha:]/"]/ { print > "f" } END { x = "" }')).toContain('bracket');
    expect(awkProgramProblem('$0 ~ /[]a]/ { print }')).toBeUndefined();
  });
});
