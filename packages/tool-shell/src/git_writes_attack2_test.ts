// Second attack on the git write declarations (_git_writes.ts, _git_words.ts, declareGit in
// command_resources.ts), by a second pair of eyes. Each command below was run in a scratch
// repository (git 2.39) and wrote the protected file named beside it, and the guard allowed it
// with `Bash(git <sub>:*)` allowed, in every mode (the last group: in bypassPermissions). Each
// test failed then; the guard now asks.
import { describe, test } from 'vitest';
import { gitRules, guardedProject, MODES, WRITER_RULES } from './testdata/guarded_project.ts';

const { expectAsk } = guardedProject();

const RULES = [
  ...WRITER_RULES,
  ...gitRules(
    'stash',
    'shortlog',
    'reflog',
    'rev-list',
    'diff-tree',
    'diff-index',
    'diff-files',
    'grep',
    'ls-remote',
    'fetch',
    'remote',
    'branch',
    'init',
    'clone',
    'submodule',
    'maintenance',
    'update-ref',
    'merge-file',
    'fast-export',
    'mailinfo',
    'mailsplit',
    'diagnose',
    'bugreport',
  ),
];

describe('the words of a declared git subcommand, read as git reads them', () => {
  test.each([
    // Two words and no `--`: when the first is a path and not a revision, git checks both out
    // from the index (.claude/settings.json); the guard takes the first for a tree.
    'git checkout .claude/settings.json src/a.ts',
    // git takes the last of an option and its `--no-` form: the early returns on --orphan,
    // --cached, -n, --blob, --get and --list see the first only.
    'git checkout --orphan x --no-orphan HEAD .claude/settings.json',
    'git rm -f --cached --no-cached .claude/settings.json',
    'git rm -f -n --no-dry-run .claude/settings.json',
    'git mv -n --no-dry-run .claude/settings.json old.json',
    'git clean -n --no-dry-run -f .claude',
    'git config --blob=HEAD:x --no-blob core.hooksPath /tmp/h',
    'git config --get --no-get core.hooksPath /tmp/h',
    'git config -l --no-list core.hooksPath /tmp/h',
    // `--no-file` drops the file: git writes .git/config, the guard declares my.cfg.
    'git config --file=my.cfg --no-file core.hooksPath /tmp/h',
    // A valued short option inside a bundle takes the next word: `-fe -n` excludes "-n", it is no dry run.
    'git clean -fe -n .claude',
    'git clean -fxe -n',
    // `-ko DIR`: -k, then -o DIR; patches land in .claude/.
    'git format-patch -ko .claude -1',
    // format-patch writes into the current folder when no -o is given.
    'cd .claude && git format-patch -1',
  ])('%s asks, in every mode', async (command) => {
    await expectAsk(command, RULES, MODES);
  });
});

describe('subcommands that take --output (diff options) but are not declared', () => {
  test.each([
    'git stash show -p --output=.mcp.json',
    'git stash list --output=.mcp.json',
    'git shortlog --output=.mcp.json HEAD',
    'git reflog --output=.mcp.json',
    'git rev-list --output=.mcp.json HEAD',
    'git diff-tree -p --output=.mcp.json HEAD',
    'git diff-index -p --output=.mcp.json HEAD',
    'git diff-files -p --output=.mcp.json',
    // X='--output=.mcp.json'
    'git diff-index $X HEAD',
    'git stash show $X',
  ])('%s asks, in every mode', async (command) => {
    await expectAsk(command, RULES, MODES);
  });
});

describe('an --output path through a link to a folder, then ..', () => {
  // l -> .claude/agents, so git's fopen("l/../settings.json") opens .claude/settings.json; the
  // guard resolves `..` before the link and declares <project>/settings.json.
  test.each(['git diff --output=l/../settings.json', 'git archive -o l/../settings.json HEAD'])(
    '%s asks, in every mode',
    async (command) => {
      await expectAsk(command, RULES, MODES);
    },
  );
});

describe('git subcommands that are not declared and write a protected file', () => {
  test.each([
    // Rewrites the named path to HEAD's version, like `git checkout HEAD -- .claude/settings.json`.
    'git stash push -- .claude/settings.json',
    // .git/config
    'git remote add origin https://evil.example/x',
    'git branch --track feat main',
    // .git/hooks/pre-commit (copied from the template when missing: runs on the next commit)
    'git init --template=/tmp/evil',
    // a repository (config, hooks) inside .claude
    'git init --bare .claude/x',
    // moves .git away and writes a .git file in its place
    'git init --separate-git-dir=/tmp/moved',
    // any files inside .claude (and, for submodule add, .git/config)
    'git clone -q https://example.com/x .claude/skills',
    'git submodule add https://example.com/x .claude/sub',
    // ~/.gitconfig (maintenance.repo)
    'git maintenance register',
    // .git/hooks/pre-commit: any name git takes for a ref, outside refs/
    'git update-ref hooks/pre-commit HEAD',
    // the merge result goes into the first file
    'git merge-file .claude/settings.json base other',
    'git fast-export --export-marks=.claude/settings.json HEAD',
    // the commit message goes into the first file
    'git mailinfo .claude/settings.json patch',
    'git mailsplit -o.claude mbox',
    'git diagnose -o .claude',
    'git bugreport -o .claude',
  ])('%s asks, in every mode', async (command) => {
    await expectAsk(command, RULES, MODES);
  });
});

describe('git options that run a command', () => {
  // Each ran `touch .claude/pwned` in the scratch repository.
  test.each([
    'git grep -O"touch .claude/pwned;" safe',
    'git grep --open-files-in-pager="touch .claude/pwned;" safe',
    // X='--open-files-in-pager=./evil.sh'
    'git grep $X safe',
    'git ls-remote --upload-pack="touch .claude/pwned; git-upload-pack" .',
    // X='--upload-pack=./evil.sh'
    'git ls-remote $X .',
    'git fetch --upload-pack="touch .claude/pwned; git-upload-pack" .',
    'git archive --remote=. --exec="touch .claude/pwned; git-upload-archive" HEAD',
  ])('%s asks, in every mode', async (command) => {
    await expectAsk(command, RULES, MODES);
  });
});

describe('in bypassPermissions mode (no rule needed), git writing a protected file', () => {
  // The rules do not match these forms, so the other modes ask; bypassPermissions allowed them.
  test.each([
    // .claude/src/a.ts: the work tree is .claude, the guard declares <project>/src/a.ts.
    'GIT_WORK_TREE=.claude git checkout HEAD -- src/a.ts',
    // -C goes through the link: git runs in .claude and writes .claude/settings.json.
    'git -C l/.. checkout HEAD -- settings.json',
    // .claude/0001-*.patch
    'git -C .claude format-patch -1',
    // .mcp.json: xargs passes the option; declared as an unknown read.
    'echo --output=.mcp.json | xargs git diff',
    // .mcp.json: bash -c is not looked into.
    'bash -c "git log --output=.mcp.json"',
  ])('%s asks', async (command) => {
    await expectAsk(command, RULES, ['bypassPermissions']);
  });
});
