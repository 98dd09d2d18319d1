// Seventh attack, first part: a user's Edit deny rule must hold where a copied, moved or linked
// folder's entries land, at any depth, and a Read deny rule on what the folder holds. Core judged
// each entry of a landing's source folder (`ResourceAccess.from`) against the protected paths
// only: with deny `Edit(dest/prod.json)`, `cp -r stuff dest` (stuff/prod.json inside) wrote
// dest/prod.json, allowed by `Bash(cp:*)` in every mode; each command below was run in a copy of
// the project (bash 5, GNU coreutils) and wrote the file the rule names.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { MODES } from './testdata/guarded_project.ts';
import { shellDecider } from './testdata/shell_decider.ts';

const RULES = ['Bash(cp:*)', 'Bash(mv:*)', 'Bash(ln:*)', 'Bash(rsync:*)', 'Bash(install:*)'];
const DENY = ['Edit(./dest/prod.json)', 'Edit(**/.env)', 'Read(./secrets/key.pem)'];
const { root, explain, inEveryMode, runInCopy } = shellDecider('toolshed-landing-rules-', RULES, { deny: DENY });

const FILES = {
  'stuff/prod.json': '{"db":"prod"}\n',
  'stuff/a.txt': 'a\n',
  'env/sub/deep/.env': 'TOKEN=x\n',
  'secrets/key.pem': 'KEY\n',
  'secrets/readme.txt': 'r\n',
  'src/a.ts': 'a\n',
  'out/.keep': '',
};

async function project(name: string): Promise<string> {
  const dir = path.join(root(), name);
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

const name = (command: string) => command.replaceAll(/\W/g, '_');

describe('an Edit deny rule holds where a folder’s entries land', () => {
  test.each([
    ['cp -r stuff dest', 'dest/prod.json', 'Edit(./dest/prod.json)'],
    ['mv stuff dest', 'dest/prod.json', 'Edit(./dest/prod.json)'],
    ['cp -r stuff/. dest', 'dest/prod.json', 'Edit(./dest/prod.json)'],
    ['cp -a stuff dest', 'dest/prod.json', 'Edit(./dest/prod.json)'],
    ['ln -s STUFF dest', 'dest/prod.json', 'Edit(./dest/prod.json)'],
    ['cp -r env out', 'out/env/sub/deep/.env', 'Edit(**/.env)'],
    ['cp -r -t out env', 'out/env/sub/deep/.env', 'Edit(**/.env)'],
    ['ln -s ENV out/e', 'out/e/sub/deep/.env', 'Edit(**/.env)'],
  ])('%s writes %s: denied by the rule, naming where it lands, in every mode', async (template, written, rule) => {
    const dir = await project(name(template));
    const command = template.replace('STUFF', path.join(dir, 'stuff')).replace('ENV', path.join(dir, 'env'));
    const copy = await runInCopy(dir, command.replace(dir, `${dir}-run`));
    expect(existsSync(path.join(copy, written)), `${command} wrote ${written}`).toBe(true);
    for (const decision of await inEveryMode(dir, command, 'deny')) {
      expect(decision.rule).toBe(rule);
      // Where an entry lands (ln declares both `out/e` and `out/e/env`: whichever out/e is when it runs).
      expect(decision.reason).toMatch(new RegExp(`at ${dir}/\\S*${path.basename(written)}, which the rule covers`));
    }
  });

  test('rsync, whose landings the guard does not work out, asks in every mode', async () => {
    const dir = await project('rsync');
    const command = 'rsync -a stuff/ dest/';
    const copy = await runInCopy(dir, command);
    // rsync may be missing: what it would write is the question, not whether it is installed.
    if (existsSync(path.join(copy, 'dest'))) expect(existsSync(path.join(copy, 'dest/prod.json'))).toBe(true);
    for (const mode of MODES) expect(await explain(dir, command, mode)).toMatchObject({ behavior: 'ask' });
  });

  test('a copy whose entries land where no rule is stays allowed', async () => {
    const dir = await project('plain');
    for (const command of ['cp -r src lib', 'mv src lib', 'cp -r stuff other', 'ln -s src dest'])
      expect((await explain(dir, command, 'bypassPermissions')).behavior, command).toBe('allow');
  });
});

describe('a Read deny rule holds for what a copied or moved folder holds, at any depth', () => {
  test.each(['cp -r secrets out', 'mv secrets out', 'cp -a secrets out/s', 'cp -rl secrets out', 'cp -r . out'])(
    '%s is denied by Read(./secrets/key.pem), in every mode',
    async (command) => {
      const dir = await project(name(command));
      for (const decision of await inEveryMode(dir, command, 'deny'))
        expect(decision.rule).toBe('Read(./secrets/key.pem)');
    },
  );
});
