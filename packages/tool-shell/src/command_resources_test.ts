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
    expect(commandResources('ls | tee log.txt', cwd).accesses).toEqual([{ path: '/p/log.txt', access: 'write' }]);
    expect(commandResources('rm -rf build', cwd).accesses).toEqual([{ path: '/p/build', access: 'write' }]);
    expect(commandResources('mv a b', cwd).accesses).toContainEqual({ path: '/p/b', access: 'write' });
    expect(commandResources('sort -o sorted.txt in.txt', cwd).accesses).toContainEqual({ path: '/p/sorted.txt', access: 'write' });
    expect(commandResources("sed -i 's/a/b/' f.txt", cwd).accesses).toContainEqual({ path: '/p/f.txt', access: 'write' });
    expect(commandResources('cat < in.txt', cwd).accesses).toEqual([{ path: '/p/in.txt', access: 'read' }]);
  });

  test('relative paths follow a cd, and home paths are expanded', () => {
    expect(commandResources('cd sub && cat .env', cwd).accesses).toEqual([{ path: '/p/sub/.env', access: 'read' }]);
    expect(commandResources('cat ~/.ssh/id_rsa', cwd).accesses).toEqual([{ path: `${homedir()}/.ssh/id_rsa`, access: 'read' }]);
    expect(commandResources('timeout 5 cat .env', cwd).accesses).toEqual([{ path: '/p/.env', access: 'read' }]);
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
});
