// An allow rule for a git subcommand allowed the files it writes, unseen: `git checkout HEAD~1 --
// .claude/settings.json` (with `Bash(git checkout:*)`) brought back an older, looser settings file,
// `git config core.hooksPath …` (with `Bash(git config:*)`) made the next commit run any script.
// Every git command was declared as a read of its repository. Now the paths git's words name are
// writes, checked like any other: a protected one asks, in every mode, whatever rule allows the command.
import { describe, expect, test } from 'vitest';
import { guardedProject, MODES, WRITER_RULES } from './testdata/guarded_project.ts';

const { open, expectAsk } = guardedProject();

const RULES = WRITER_RULES;

describe('git subcommands allowed by a rule, writing a protected file', () => {
  test.each([
    'git checkout HEAD~1 -- .claude/settings.json',
    'git checkout evil .claude/settings.json',
    'git checkout .claude/settings.json',
    'git checkout -f HEAD -- .mcp.json package.json',
    'git -C sub checkout HEAD -- ../.claude/settings.json',
    'git restore --source=evil .claude/settings.json',
    'git restore -s evil -W -S -- .claude/settings.json',
    'git rm .claude/settings.json',
    'git rm -r --quiet .claude',
    'git mv .claude/settings.json old.json',
    'git mv evil.json .claude/settings.json',
    'git clean -fdx .claude',
    'git clean -fdX',
    'git config core.hooksPath /tmp/hooks',
    'git config --add alias.st "!sh -c evil"',
    'git config set core.fsmonitor ./evil.sh',
    'git config --global core.pager evil',
    // The system's git configuration, /etc/gitconfig (an agent in a container often runs as root).
    'git config --system core.hooksPath /tmp/hooks',
    'git config -f .git/config core.editor evil',
    'git config --file=.claude/settings.json x.y z',
    'git diff --output=.claude/settings.json',
    'git log -p --output .mcp.json',
    'git archive -o package.json HEAD',
    'git format-patch -o .claude -1',
    'git checkout-index -a -f',
    'git checkout -- "*.json"',
    'git rm ":(glob)**/settings.json"',
    'git --work-tree=/tmp/elsewhere checkout HEAD -- settings.json',
    // A word not known before git runs may be any options.
    'git diff $OPTS',
    'git config $KEY_AND_VALUE',
    'git restore --staged $MORE .claude/settings.json',
    'git checkout $ARGS',
    'sort $X a.txt',
    // git takes any unique prefix of a long option.
    'git diff --outp=.claude/settings.json',
    'git archive --out package.json HEAD',
    'git checkout --pathspec-from=list.txt HEAD',
    'git restore --sour evil .claude/settings.json',
    'git format-patch --output-d .claude -1',
    'git config --glob core.pager evil',
    // A pathspec that names a folder rewrites what git has below it (.claude/settings.json from
    // branch evil); the patches of apply and am name their own files.
    'git restore --source evil .',
    'git restore --source=evil -- .',
    'git checkout evil -- .',
    'git checkout evil -- .claude',
    'git apply x.patch',
    'git apply --index x.patch',
    'git am < x.mbox',
    // A file of the work tree may be a folder in the commit, which git writes in its place.
    'git checkout HEAD -- src/a.ts',
  ])('%s asks, in every mode', async (command) => {
    await expectAsk(command, RULES, MODES);
  });

  test.each([
    'git checkout main',
    'git restore src/a.ts',
    'git restore --staged .claude/settings.json',
    'git rm --cached .claude/settings.json',
    'git rm -n .claude/settings.json',
    'git rm src/a.ts',
    'git mv src/a.ts src/b.ts',
    'git clean -n',
    'git config --get core.hooksPath',
    'git config core.hooksPath',
    'git config --list',
    'git config get user.name',
    'git diff --output=changes.patch',
    'git archive -o out.tar HEAD',
    'git format-patch -1',
    'git restore --stag .claude/settings.json',
    'git config --typ bool --get core.bare',
    'git apply --check x.patch',
    'git apply --stat x.patch',
    // Words not known before they run, which cannot be options: an option's value, a path's tail.
    'git log --author="$USER" --oneline',
    'git log --grep "$P"',
    'git log -S"$X"',
    'git checkout -b "$NAME"',
    'git diff --stat origin/$BRANCH',
  ])('%s is still allowed by its rule', async (command) => {
    const session = await open({ allow: RULES });
    expect((await session.explain('Bash', { command })).behavior, command).toBe('allow');
  });

  test('an allow rule that names the protected file lifts the ask, as for any write', async () => {
    const session = await open({ allow: [...RULES, 'Edit(./.git/config)'] });
    expect((await session.explain('Bash', { command: 'git config user.email a@b.c' })).behavior).toBe('allow');
    expect((await session.explain('Bash', { command: 'git config core.hooksPath x' })).behavior).toBe('allow');
    expect((await session.explain('Bash', { command: 'git checkout HEAD -- .mcp.json' })).behavior).toBe('ask');
  });
});
