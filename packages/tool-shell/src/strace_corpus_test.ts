import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadBashParser } from './bash_parser.ts';
import { commandResources } from './command_resources.ts';

/**
 * The property that matters for the path guard: every file a real command opens is one it
 * declared (a path, or a path under a declared folder), or the command declared something
 * unknown. Each command of testdata/strace_corpus.txt runs under `strace -f` in a fresh copy of
 * a fixture (a project, a folder beside it, a fake $HOME with secrets, a git repository with a
 * secret in its history); the opens below the fixture are compared with `commandResources`.
 */

const here = dirname(fileURLToPath(import.meta.url));
const corpus = readFileSync(join(here, 'testdata/strace_corpus.txt'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

function straceWorks(): string | undefined {
  const which = spawnSync('strace', ['-f', '-qq', '-e', 'trace=openat', '-o', '/dev/null', 'true'], {
    encoding: 'utf8',
  });
  if (which.error) return `strace is not installed (${which.error.message})`;
  if (which.status !== 0) return `strace cannot trace here (ptrace refused?): ${which.stderr.trim().split('\n')[0]}`;
  return undefined;
}
const missing = straceWorks();
if (missing) console.log(`[skip] the strace corpus test: ${missing}`);

let template: string;
let work: string;

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
      HOME: join(cwd, '..', 'home'),
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
}

beforeAll(async () => {
  await loadBashParser();
  if (missing) return;
  work = realpathSync(mkdtempSync(join(tmpdir(), 'strace-corpus-')));
  template = join(work, 'template');
  const files: Record<string, string> = {
    'proj/.env': 'KEY=secret\n',
    'proj/a.txt': 'alpha\nbeta\n',
    'proj/secret.txt': 'secret\n',
    'proj/sub/.env': 'SUB=1\n',
    'proj/src/a.ts': 'export const x = 1;\n',
    'proj/src/b.ts': 'export const y = KEY;\n',
    'proj/lib/x.js': 'x\n',
    'proj/patterns.txt': 'KEY\n',
    'proj/dates.txt': '2020-01-01\nnot a date\n',
    'proj/data.json': '{"a":1}\n',
    'proj/mod.jq': 'def f: 1;\n',
    'proj/script.sed': 'p\n',
    'proj/prog.awk': '{ print }\n',
    'proj/prog.jq': '.\n',
    'proj/script.sh': 'cat .env\n',
    'proj/names0.txt': '.env\0',
    'outside/secret.txt': 'outside secret\n',
    'home/.ssh/id_rsa': 'PRIVATE\n',
    'home/.bashrc': '# rc\n',
  };
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(dirname(join(template, file)), { recursive: true });
    writeFileSync(join(template, file), content);
  }
  mkdirSync(join(template, 'proj/emptydir'));
  mkdirSync(join(template, 'proj/newdir'));
  symlinkSync('../outside', join(template, 'proj/link'));
  const proj = join(template, 'proj');
  git(proj, 'init', '-q');
  mkdirSync(join(proj, 'secrets'));
  writeFileSync(join(proj, 'secrets/key'), 'HISTORY SECRET\n');
  git(proj, 'add', 'a.txt', 'src', 'secrets');
  git(proj, 'commit', '-qm', 'one');
  git(proj, 'rm', '-rq', 'secrets');
  git(proj, 'commit', '-qm', 'two');
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Open {
  path: string;
  write: boolean;
}

/** Runs one command under strace in its own copy of the fixture; the successful opens below it. */
let runs = 0;
function traced(command: string, root: string): Promise<Open[]> {
  const run = runs++;
  const out = join(root, '..', `run${run}.strace`);
  const tmp = join(root, '..', `run${run}.tmp`);
  mkdirSync(tmp);
  return new Promise((done) => {
    const child = spawn(
      'strace',
      [
        '-f',
        '-qq',
        '-y',
        '-e',
        'trace=open,openat,openat2,creat',
        '-e',
        'signal=none',
        '-o',
        out,
        'bash',
        '-c',
        command,
      ],
      {
        cwd: join(root, 'proj'),
        // GIT_OPTIONAL_LOCKS=0 as the Bash tool sets it for read-only commands.
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: join(root, 'home'),
          TMPDIR: tmp,
          LANG: 'C',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_OPTIONAL_LOCKS: '0',
        },
        stdio: ['ignore', 'ignore', 'ignore'],
      },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('close', () => {
      clearTimeout(timer);
      const opens: Open[] = [];
      let text = '';
      try {
        text = readFileSync(out, 'utf8');
      } catch {
        // no trace: nothing opened
      }
      for (const line of text.split('\n')) {
        const m = /^\d+\s+(?:open|openat|openat2|creat)\((.*)\)\s+=\s+\d+<(.+)>$/.exec(line);
        if (!m) continue;
        const path = m[2]!;
        if (path !== root && !path.startsWith(`${root}/`)) continue;
        opens.push({ path, write: /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND/.test(m[1]!) || line.includes(' creat(') });
      }
      done(opens);
    });
  });
}

/** The files git tracks in a copy's repository (and its submodules), absolute: what a `tracked` read may open. */
const trackedByRepo = new Map<string, Set<string>>();
function trackedFiles(repo: string): Set<string> {
  let files = trackedByRepo.get(repo);
  if (files === undefined) {
    const listed = spawnSync('git', ['ls-files', '-z', '--recurse-submodules'], { cwd: repo, encoding: 'utf8' });
    files = new Set(
      listed.stdout
        .split('\0')
        .filter((f) => f !== '')
        .map((f) => join(repo, f)),
    );
    trackedByRepo.set(repo, files);
  }
  return files;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function real(path: string): string {
  let p = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(p), ...rest.reverse());
    } catch {
      const parent = dirname(p);
      if (parent === p) return path;
      rest.push(p.slice(parent.length + 1));
      p = parent;
    }
  }
}

function inside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** The physical targets of the links below a folder, which a recursive reader may follow. */
function linkTargets(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const full = join(current, e.name);
      if (e.isSymbolicLink()) out.push(real(full));
      else if (e.isDirectory()) stack.push(full);
    }
  }
  return out;
}

/**
 * The three opens the property excuses, each named: they show the user nothing of the file.
 *
 * - git: every git command reads its repository's own files (`.git/`, to find the repository
 *   and its configuration); one that declares its repository (read) also compares working-tree
 *   files with its index (`git status` hashes them); commands that
 *   print contents (show, log -p, blame, grep, cat-file, diff) declare the repository as a
 *   folder with its history instead, which covers every file.
 * - rg: ripgrep reads the ignore files (`.gitignore`, `.ignore`, `.rgignore`,
 *   `.git/info/exclude`) of the folders above the one it searches, to know what to skip.
 * - sed -i: writes its result to a temporary `sedXXXXXX` beside the file it edits (declared as
 *   a write), then renames it over the file.
 */
function excused(
  command: string,
  open: Open,
  root: string,
  accesses: readonly { path: string; access: string; kind?: string }[],
): boolean {
  const repo = join(root, 'proj');
  if (/^(git|cd [^;&|]+ && git)\b/.test(command) && !open.write) {
    if (inside(open.path, join(repo, '.git'))) return true;
    if (inside(open.path, repo) && accesses.some((a) => a.kind === undefined && a.path === repo)) return true;
  }
  if (
    /^rg\b/.test(command) &&
    !open.write &&
    /\/(\.gitignore|\.ignore|\.rgignore|\.git\/info\/exclude)$/.test(open.path)
  )
    return true;
  if (/^sed\b.*\s-i/.test(command) && /\/sed[A-Za-z0-9]{6}$/.test(open.path))
    return accesses.some((a) => a.access === 'write' && dirname(a.path) === dirname(open.path));
  return false;
}

describe.skipIf(missing !== undefined)(
  'every file a corpus command opens is declared, or the command is unknown (strace)',
  () => {
    test(`the corpus has at least 300 commands (${corpus.length})`, () => {
      expect(corpus.length).toBeGreaterThanOrEqual(300);
    });

    test('no undeclared opens', async () => {
      const failures: string[] = [];
      let unknownCount = 0;
      let index = 0;
      const worker = async () => {
        for (;;) {
          const i = index++;
          if (i >= corpus.length) return;
          const command = corpus[i]!;
          // Commands that declare no write share one copy of the fixture; the others get their own.
          const shared = join(work, 'shared');
          const probe = commandResources(command, join(shared, 'proj'), { homeDir: join(shared, 'home') });
          const writes = probe.accesses.some((a) => a.access === 'write');
          const root = writes ? join(work, `c${i}`) : shared;
          if (writes) await cp(template, root, { recursive: true, verbatimSymlinks: true });
          const home = join(root, 'home');
          const cwd = join(root, 'proj');
          // Declared before the command runs, as the guard sees it.
          const declared = writes ? commandResources(command, cwd, { homeDir: home }) : probe;
          const accesses = declared.accesses;
          // A command that declares something unknown asks whatever it opens: no need to trace it.
          if (accesses.some((a) => a.kind === 'unknown')) {
            unknownCount++;
            if (writes) await rm(root, { recursive: true, force: true });
            continue;
          }
          // A read of what git tracks (`git diff`) covers the tracked files only, and no link's target.
          const folders = accesses
            .filter((a) => a.kind === 'folder')
            .map((a) => ({
              ...a,
              forms: a.tracked ? [a.path, real(a.path)] : [a.path, real(a.path), ...linkTargets(real(a.path))],
            }));
          const exact = accesses
            .filter((a) => a.kind !== 'unknown' && a.kind !== 'folder')
            .map((a) => ({ ...a, forms: [a.path, real(a.path)] }));
          const opens = await traced(command, root);
          for (const open of opens) {
            if (excused(command, open, root, accesses)) continue;
            const ok =
              exact.some((a) => (open.write ? a.access === 'write' : true) && a.forms.some((f) => f === open.path)) ||
              folders.some(
                (a) =>
                  (open.write ? a.access === 'write' : true) &&
                  a.forms.some((f) => inside(open.path, f)) &&
                  (!a.tracked || trackedFiles(cwd).has(open.path)) &&
                  // A read of names and metadata opens folders only, never a file's contents.
                  (!a.names || isDirectory(open.path)),
              );
            if (!ok)
              failures.push(
                `${command}\n    opened ${open.write ? 'for writing' : 'for reading'} ${open.path.replace(root, '<root>')}\n    declared ${JSON.stringify(accesses.map((a) => `${a.kind ?? 'path'}:${a.access}:${a.path.replace(root, '<root>')}`))}`,
              );
          }
          if (writes) await rm(root, { recursive: true, force: true });
        }
      };
      cpSync(template, join(work, 'shared'), { recursive: true, verbatimSymlinks: true });
      // A copy changes every file's ctime, so git would refresh (write) its index on the first
      // diff; a checkout in use has a fresh index.
      git(join(work, 'shared/proj'), 'update-index', '-q', '--refresh');
      await Promise.all([worker(), worker(), worker()]);
      console.log(
        `strace corpus: ${corpus.length} commands, ${unknownCount} declared something unknown, ${failures.length} undeclared opens`,
      );
      expect(failures, failures.join('\n')).toEqual([]);
      // The corpus is not passed by calling everything unknown.
      expect(unknownCount).toBeLessThan(corpus.length * 0.5);
    }, 300_000);

    test('the fixture is real: a traced cat of .env is seen opening it', async () => {
      const root = join(work, 'check');
      cpSync(template, root, { recursive: true, verbatimSymlinks: true });
      const opens = await traced('cat .env', root);
      expect(opens.map((o) => o.path)).toContain(join(root, 'proj/.env'));
      expect(existsSync(join(root, 'proj/.git'))).toBe(true);
    });
  },
);
