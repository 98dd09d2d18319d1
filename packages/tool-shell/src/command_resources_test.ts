import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { commandResources } from './command_resources.ts';

let p: string;
const home = '/home/u';
beforeAll(async () => {
  await loadBashParser();
  p = realpathSync(mkdtempSync(join(tmpdir(), 'resources-')));
  for (const f of ['.env', 'a.txt', 'in.txt', 'f.txt', 'secret.txt', 'sub/.env', 'src/a.ts', 'src/b.ts', 'lib/x.js']) {
    mkdirSync(join(p, f, '..'), { recursive: true });
    writeFileSync(join(p, f), 'x\n');
  }
  mkdirSync(join(p, 'outside'));
  writeFileSync(join(p, 'outside/secret.txt'), 's\n');
  symlinkSync(join(p, 'outside'), join(p, 'link'));
});
afterAll(() => rmSync(p, { recursive: true, force: true }));

const run = (command: string) => commandResources(command, p, { homeDir: home });
const list = (command: string) =>
  run(command).accesses.map(
    (a) =>
      `${a.kind === 'unknown' ? 'unknown' : a.kind === 'folder' ? (a.history ? 'history' : 'folder') : a.access}:${a.kind === 'unknown' ? '' : a.path.replace(p, '/p')}`,
  );

describe('commandResources', () => {
  test('file arguments of readers are reads', () => {
    expect(list('cat .env')).toEqual(['read:/p/.env']);
    expect(list('head -n 5 a.txt')).toEqual(['read:/p/a.txt']);
    expect(list('grep KEY .env')).toEqual(['read:/p/.env']);
    expect(list('grep -e KEY -e OTHER .env')).toEqual(['read:/p/.env']);
  });

  test('redirections and cp, mv, rm, tee destinations are writes', () => {
    // Where the sources land is written too: into x, or as x, whichever x is when cp runs.
    expect(list('cp .env /nonexistent/x')).toEqual([
      'read:/p/.env',
      'write:/nonexistent/x/.env',
      'write:/nonexistent/x',
    ]);
    // Each landing names its source: what a folder holds lands below it, at any depth (core judges each entry).
    expect(commandResources('cp -r src /nonexistent/x', '/p').accesses).toContainEqual({
      path: '/nonexistent/x',
      access: 'write',
      from: '/p/src',
    });
    expect(commandResources('cp -r src/. /nonexistent/x', '/p').accesses).toContainEqual({
      path: '/nonexistent/x',
      access: 'write',
      from: '/p/src',
    });
    expect(commandResources('ln -s ../x /nonexistent/y/z', '/p').accesses).toContainEqual({
      path: '/nonexistent/y/z',
      access: 'write',
      from: '/nonexistent/x',
    });
    expect(list('cp .env a.txt sub')).toEqual([
      'read:/p/.env',
      'read:/p/a.txt',
      'folder:/p/sub',
      'write:/p/sub/.env',
      'write:/p/sub/a.txt',
    ]);
    expect(list('echo x > out.txt 2>/dev/null')).toEqual(['write:/p/out.txt']);
    expect(list('ls | tee log.txt')).toContain('write:/p/log.txt');
    expect(list('rm -rf build')).toEqual(['folder:/p/build']);
    expect(list('rm build')).toEqual(['write:/p/build']);
    expect(list('mv a b')).toContain('write:/p/b');
    expect(list('sort -o sorted.txt in.txt')).toContain('write:/p/sorted.txt');
    expect(list("sed -i 's/a/b/' f.txt")).toContain('write:/p/f.txt');
    expect(list('cat < in.txt')).toEqual(['read:/p/in.txt']);
  });

  test('relative paths follow a cd that surely runs; home paths are expanded', () => {
    expect(list('cd sub && cat .env')).toEqual(['read:/p/sub/.env']);
    expect(list('cat ~/.ssh/id_rsa')).toEqual([`read:${home}/.ssh/id_rsa`]);
    for (const wrapped of [
      'timeout 5 cat .env',
      'nice -n5 cat .env',
      'env A=1 cat .env',
      'timeout --signal=KILL 5 cat .env',
      'sudo -u root cat .env',
    ]) {
      expect(list(wrapped), wrapped).toEqual(['read:/p/.env']);
    }
  });

  test('a redirection after a cd resolves against the new directory', () => {
    expect(list('cd outside && cat < secret.txt')).toEqual(['read:/p/outside/secret.txt']);
    expect(list('cd outside; cat secret.txt > copy.txt')).toEqual([
      'write:/p/outside/copy.txt',
      'read:/p/outside/secret.txt',
    ]);
  });

  test('a cd that may or may not run makes later relative paths unknown', () => {
    for (const command of [
      'if true; then cd outside; fi; cat secret.txt',
      'for d in outside; do cd $d; done; cat secret.txt',
      '(cd outside); cat secret.txt',
      'true && cd outside; cat secret.txt',
      'for i in 1 2; do cat secret.txt; cd outside; done',
      'cd missing; cat .env',
      'cd $DIR && cat .env',
      'pushd outside; cat secret.txt',
    ]) {
      expect(
        run(command).accesses.some((a) => a.kind === 'unknown'),
        command,
      ).toBe(true);
    }
    // env -C and cd -P through a link.
    expect(list('env -C outside cat secret.txt')).toEqual(['unknown:']);
    expect(list('cd -P link/.. && cat .env')).toEqual(['read:/p/.env']);
    expect(list('cd link/.. && cat .env')).toEqual(['read:/p/.env']);
  });

  test('expansions resolve when provable, else are unknown', () => {
    // A glob reads the folder it lists, then the files it matched.
    expect(list('cat secre?.txt')).toEqual(['read:/p', 'read:/p/secret.txt']);
    expect(list('cat .en?')).toEqual(['read:/p', 'read:/p/.env']);
    expect(list('cat src/*.ts')).toEqual(['read:/p/src', 'read:/p/src/a.ts', 'read:/p/src/b.ts']);
    expect(list('cat *')).not.toContain('read:/p/.env');
    expect(list('cat {a,in}.txt')).toEqual(['read:/p/a.txt', 'read:/p/in.txt']);
    expect(list('cat ~+/.env')).toEqual(['read:/p/.env']);
    for (const command of [
      'cat $F',
      'cat $HOME/.env',
      'cat ~root/.ssh/id_rsa',
      'cat $(echo .env)',
      'cat /proc/self/cwd/.env',
      'cat /dev/fd/3 3<.env',
      'cat {1..3}',
      'cat "$X"*',
    ]) {
      expect(
        run(command).accesses.some((a) => a.kind === 'unknown'),
        command,
      ).toBe(true);
    }
  });

  test('variables and options that change how bash expands paths make the command unknown', () => {
    for (const command of [
      'HOME=/etc; cat ~/passwd',
      'GLOBIGNORE=x; cat *',
      'export HOME=/etc; cat ~/passwd',
      'shopt -s dotglob; cat *',
      'CDPATH=/etc; cd ssl && cat x',
    ]) {
      expect(
        run(command).accesses.some((a) => a.kind === 'unknown'),
        command,
      ).toBe(true);
    }
    expect(list('cat ".en?"')).toEqual(['read:/p/.en?']);
    expect(list("cat $'\\x2eenv'")).toEqual(['read:/p/.env']);
  });

  test('option tables: flags, optional values and bundles', () => {
    expect(list('column -t a.txt')).toEqual(['read:/p/a.txt']);
    expect(list('od -w a.txt')).toEqual(['read:/p/a.txt']);
    expect(list('date -I -f .env')).toEqual(['read:/p/.env']);
    expect(list('grep --color . .env')).toEqual(['read:/p/.env']);
    expect(list('sed -nep .env')).toEqual(['read:/p/.env']);
    expect(list('grep -ie. .env')).toEqual(['read:/p/.env']);
    expect(list('grep --fil=.env x')).toContain('read:/p/.env');
    expect(list('jq -n --rawfile x .env .')).toContain('read:/p/.env');
  });

  test('programs that open files named in their program text are unknown', () => {
    for (const command of [
      'awk \'BEGIN { ARGV[1] = ".env" } { print }\' a.txt',
      'awk \'BEGIN { getline l < ".env" }\'',
      'jq -L . -n \'import "x" as x; 1\'',
      'sed -n -f script.sed a.txt',
      "sed '1e cat .env' a.txt",
    ]) {
      expect(
        run(command).accesses.some((a) => a.kind === 'unknown'),
        command,
      ).toBe(true);
    }
    // sed's script is read as sed reads it: the files of r, R, w, W are exact paths.
    expect(list("sed -n '1!r .env' a.txt")).toEqual(['read:/p/.env', 'read:/p/a.txt']);
    expect(list("sed 's|a|b|w out.txt' a.txt")).toEqual(['write:/p/out.txt', 'read:/p/a.txt']);
  });

  test('recursive and history readers declare folders', () => {
    expect(list('grep -r KEY .')).toEqual(['folder:/p']);
    expect(list('grep -r KEY')).toEqual(['folder:/p']);
    expect(list('rg KEY')).toEqual(['folder:/p']);
    expect(list('rg --hidden KEY src')).toEqual(['folder:/p/src']);
    expect(list('diff -r src lib')).toEqual(['folder:/p/src', 'folder:/p/lib']);
    expect(list('find -L . -name x')).toEqual(['read:/p', 'folder:/p']);
    expect(list('git grep --no-index KEY')).toContain('folder:/p');
    expect(list('git log -p')).toEqual(['history:/p']);
    // A history read limited to paths names them (see git_history_paths_test.ts).
    expect(list('git show HEAD:secrets/key')).toEqual(['history:/p/secrets/key']);
    expect(list('git blame a.txt')).toEqual(['history:/p/a.txt']);
    expect(list('git cat-file -p HEAD:.env')).toEqual(['history:/p/.env']);
    expect(list('git log -p -- src')).toEqual(['history:/p/src']);
    expect(list('git status')).toEqual(['read:/p']);
    expect(list('git log --oneline')).toEqual(['read:/p']);
  });

  test('git declares the paths its words say it writes, and the config file it changes', () => {
    expect(list('git checkout -- a.txt src/a.ts')).toEqual([
      'write:/p/a.txt',
      'folder:/p/a.txt',
      'write:/p/src/a.ts',
      'folder:/p/src/a.ts',
      'read:/p',
    ]);
    // From a commit, a file may be a folder: what it holds is not known.
    expect(list('git checkout HEAD~1 -- a.txt src/a.ts')).toEqual(['unknown:', 'unknown:', 'read:/p']);
    expect(list('git -C src restore --source=HEAD a.ts')).toEqual(['unknown:', `read:/p/src`]);
    expect(list('git rm --cached a.txt')).toEqual(['read:/p']);
    expect(list('git clean -fd')).toEqual(['folder:/p', 'read:/p']);
    expect(list('git config core.hooksPath x')).toEqual(['write:/p/.git/config', 'read:/p']);
    expect(list('git config --global alias.x y')).toEqual(['write:/home/u/.gitconfig', 'read:/p']);
    expect(list('git config user.name')).toEqual(['read:/p']);
    expect(list('git diff --output=out.patch')).toEqual(['write:/p/out.patch', 'history:/p']);
    expect(list('git rm "*.txt"')).toEqual(['unknown:', 'read:/p']);
  });

  test("a shell's -c script is read as a command of its own; xargs to a writer is an unknown write", () => {
    expect(list("bash -c 'rm .env && cat a.txt'")).toEqual(['write:/p/.env', 'read:/p/a.txt']);
    expect(list('sh -ec "git config core.hooksPath x"')).toEqual(['write:/p/.git/config', 'read:/p']);
    expect(list('bash -c "$S"')).toEqual(['unknown:']);
    expect(run('find . -name x | xargs rm').accesses.filter((a) => a.kind === 'unknown')).toMatchObject([
      { access: 'write' },
    ]);
    expect(run('find . -name x | xargs cat').accesses.filter((a) => a.kind === 'unknown')).toMatchObject([
      { access: 'read' },
    ]);
  });

  test('a word not known before it runs may be an option that writes, unless it starts with a known character', () => {
    expect(run('sort $X a.txt').accesses.some((a) => a.kind === 'unknown' && a.access === 'write')).toBe(true);
    expect(run('cp src/*.ts sub').accesses.some((a) => a.kind === 'unknown')).toBe(false);
    expect(run('sort -u src/*.ts').accesses.some((a) => a.kind === 'unknown')).toBe(false);
  });

  test('an option that runs a command is an unknown write, in a bundle too; a variable set beside git is not', () => {
    const writes = (command: string) => run(command).accesses.some((a) => a.kind === 'unknown' && a.access === 'write');
    expect(writes("rsync -ave 'sh -c evil' a b")).toBe(true);
    expect(writes("rsync -a --rsh='sh -c evil' a b")).toBe(true);
    // rsync writes what its source holds, which the guard does not work out: unknown in any case.
    expect(writes('rsync -av a b')).toBe(true);
    expect(writes('sort -S 1K a')).toBe(false);
    expect(writes('N=$(date +%s); git status')).toBe(false);
    expect(writes('GIT_DIR=x; git status')).toBe(true);
    expect(writes('export $V; git status')).toBe(true);
  });

  test('git diff --no-index reads its paths; listers read the directories they list', () => {
    expect(list('git diff --no-index .env /dev/null')).toContain('folder:/p/.env');
    expect(list('ls')).toEqual(['read:/p']);
    expect(list('ls -la --sort size -w 80 /etc')).toEqual(['read:/etc']);
    expect(list('ls src/*.ts')).toEqual(['read:/p/src']);
    expect(list('cd /etc && tree')).toEqual(['folder:/etc']);
    expect(list('git -C ../other status')).toEqual([`read:${join(p, '..', 'other')}`]);
  });

  test('options that read a file and show its lines are reads: date -f, --files0-from, diff --from-file, git blame --contents', () => {
    for (const command of [
      'date -f .env',
      'wc --files0-from=.env',
      'sort --files0-from .env',
      'diff --from-file=.env a',
      'find . -files0-from .env',
      'git blame --contents .env a.ts',
    ]) {
      expect(list(command), command).toContain('read:/p/.env');
    }
    expect(list('date +%s -d yesterday')).toEqual([]);
  });

  test('the list is complete only when every program is understood', () => {
    expect(run('cat a && rm b').complete).toBe(true);
    expect(run('npm test > out.txt').complete).toBe(false);
    expect(run('cat $(ls)').complete).toBe(false);
    expect(list('cat <<EOF > secrets/x\nhi\nEOF')).toEqual(['write:/p/secrets/x']);
  });
});
