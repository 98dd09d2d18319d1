import { homedir } from 'node:os';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { commandResources } from './command_resources.ts';

beforeAll(async () => {
  await loadBashParser();
});

const cwd = '/p';

describe('commandResources', () => {
  test('file arguments of readers are reads', () => {
    expect(commandResources('cat .env', cwd).accesses).toEqual([{ path: '/p/.env', access: 'read' }]);
    expect(commandResources('head -n 5 a.txt', cwd).accesses).toEqual([{ path: '/p/a.txt', access: 'read' }]);
    expect(commandResources('grep KEY .env', cwd).accesses).toEqual([{ path: '/p/.env', access: 'read' }]);
    expect(commandResources('grep -e KEY -e OTHER .env', cwd).accesses).toEqual([{ path: '/p/.env', access: 'read' }]);
    expect(commandResources('rg -n KEY src .env', cwd).accesses.map((a) => a.path)).toEqual(['/p/src', '/p/.env']);
  });

  test('redirections and cp, mv, rm, tee destinations are writes', () => {
    expect(commandResources('cp .env /tmp/x', cwd).accesses).toEqual([
      { path: '/p/.env', access: 'read' },
      { path: '/tmp/x', access: 'write' },
    ]);
    expect(commandResources('echo x > out.txt 2>/dev/null', cwd).accesses).toEqual([{ path: '/p/out.txt', access: 'write' }]);
    expect(commandResources('ls | tee log.txt', cwd).accesses).toContainEqual({ path: '/p/log.txt', access: 'write' });
    expect(commandResources('rm -rf build', cwd).accesses).toEqual([{ path: '/p/build', access: 'write' }]);
    expect(commandResources('mv a b', cwd).accesses).toContainEqual({ path: '/p/b', access: 'write' });
    expect(commandResources('sort -o sorted.txt in.txt', cwd).accesses).toContainEqual({ path: '/p/sorted.txt', access: 'write' });
    expect(commandResources("sed -i 's/a/b/' f.txt", cwd).accesses).toContainEqual({ path: '/p/f.txt', access: 'write' });
    expect(commandResources('cat < in.txt', cwd).accesses).toEqual([{ path: '/p/in.txt', access: 'read' }]);
  });

  test('relative paths follow a cd, and home paths are expanded', () => {
    expect(commandResources('cd sub && cat .env', cwd).accesses).toEqual([{ path: '/p/sub/.env', access: 'read' }]);
    expect(commandResources('cat ~/.ssh/id_rsa', cwd).accesses).toEqual([{ path: `${homedir()}/.ssh/id_rsa`, access: 'read' }]);
    for (const wrapped of ['timeout 5 cat .env', 'nice -n5 cat .env', 'env A=1 cat .env', 'timeout --signal=KILL 5 cat .env', 'sudo -u root cat .env']) {
      expect(commandResources(wrapped, cwd).accesses, wrapped).toEqual([{ path: '/p/.env', access: 'read' }]);
    }
  });

  test('paths only known at run time are listed as unknown', () => {
    expect(commandResources('cat $F', cwd).unknown).toHaveLength(1);
    expect(commandResources('cat .e*', cwd).unknown).toHaveLength(1);
    const afterCd = commandResources('cd $DIR && cat .env', cwd);
    expect(afterCd.accesses).toEqual([]);
    expect(afterCd.unknown[0]).toContain('.env');
  });

  test('the list is complete only when every program is a known one', () => {
    expect(commandResources('cat a && rm b', cwd).complete).toBe(true);
    expect(commandResources('npm test > out.txt', cwd).complete).toBe(false);
    expect(commandResources('cat $(ls)', cwd).complete).toBe(false);
  });

  test('a redirection after a here-document start is a write', () => {
    expect(commandResources('cat <<EOF > secrets/x\nhi\nEOF', cwd).accesses).toEqual([{ path: '/p/secrets/x', access: 'write' }]);
  });

  test('git diff --no-index reads its paths; awk getline < and jq --rawfile are declared', () => {
    expect(commandResources('git diff --no-index .env /dev/null', cwd).accesses).toContainEqual({ path: '/p/.env', access: 'read' });
    expect(commandResources('git diff HEAD -- .env', cwd).accesses).toEqual([]);
    expect(commandResources('awk \'BEGIN { getline l < ".env" }\'', cwd).unknown[0]).toContain('getline');
    expect(commandResources('jq -n --rawfile x .env .', cwd).accesses).toContainEqual({ path: '/p/.env', access: 'read' });
  });

  test('listers read the directories they list: their paths, the directory of a glob, or the current one', () => {
    const reads = (command: string) => commandResources(command, cwd).accesses.map((a) => `${a.access}:${a.path}`);
    expect(reads('ls')).toEqual(['read:/p']);
    expect(reads('ls -la --sort size -w 80 /etc')).toEqual(['read:/etc']);
    expect(reads('ls src/*.ts')).toEqual(['read:/p/src']);
    expect(reads('find -L /etc lib -name "*.pem" -type f')).toEqual(['read:/etc', 'read:/p/lib']);
    expect(reads('cd /etc && tree')).toEqual(['read:/etc']);
    expect(reads('du -sh ~')).toEqual([`read:${homedir()}`]);
    expect(reads('git -C ../other log')).toEqual(['read:/other']);
    expect(commandResources('ls $DIR', cwd).unknown).toHaveLength(1);
    // rg searches the current directory without a path; a glob it reads stays unknown.
    expect(reads('cd /etc && rg KEY')).toEqual(['read:/etc']);
    expect(reads('rg --files /etc')).toEqual(['read:/etc']);
    expect(commandResources('rg KEY .e*', cwd).unknown).toHaveLength(1);
  });

  test('options that read a file and show its lines are reads: date -f, --files0-from, diff --from-file, git blame --contents', () => {
    for (const command of ['date -f .env', 'wc --files0-from=.env', 'sort --files0-from .env', 'diff --from-file=.env a', 'find . -files0-from .env', 'git blame --contents .env a.ts']) {
      expect(commandResources(command, cwd).accesses, command).toContainEqual({ path: '/p/.env', access: 'read' });
    }
    expect(commandResources('date +%s -d yesterday', cwd).accesses).toEqual([]);
  });
});
