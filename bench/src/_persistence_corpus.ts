import { execFile } from 'node:child_process';
import { access, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where downloaded tarballs are kept between runs (gitignored). */
export const CACHE_DIR = fileURLToPath(new URL('../.cache/', import.meta.url));

/** What {@linkcode prepareCorpus} made. */
export interface Corpus {
  /** A git repository: one commit per version, the package's files at the top. */
  repo: string;
  /** The versions committed, oldest first. */
  versions: string[];
  /** The tarballs used. */
  tarballs: string[];
}

/**
 * Fetches `typescript` tarballs from the npm registry with `npm pack` (into {@linkcode CACHE_DIR},
 * once), unpacks each into one git repository as one commit per version (so `git log -p` shows the
 * real changes between releases), and adds a folder `bench-tests/` with a type-check that fails
 * and a `node --test` file, so test runs have real output.
 *
 * @param workDir An empty folder to build the repository in.
 * @param versions The versions, oldest first.
 * @param cacheDir Where tarballs are cached. @default CACHE_DIR
 * @returns The repository and what went into it.
 * @throws {Error} When `npm pack` fails (no registry, unknown version) or git or tar fail; the message names the command.
 *
 * @example
 * ```ts
 * const corpus = await prepareCorpus(dir, ['5.8.3', '5.9.3']);
 * ```
 */
export async function prepareCorpus(
  workDir: string,
  versions: readonly string[],
  cacheDir: string = CACHE_DIR,
): Promise<Corpus> {
  await mkdir(cacheDir, { recursive: true });
  const repo = path.join(workDir, 'repo');
  await mkdir(repo, { recursive: true });
  const git = (...args: string[]) =>
    run('git', args, {
      cwd: repo,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@example.invalid',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@example.invalid',
      },
    });
  await git('init', '-q');
  const tarballs: string[] = [];
  for (const version of versions) {
    const tarball = path.join(cacheDir, `typescript-${version}.tgz`);
    if (!(await exists(tarball))) {
      try {
        await run('npm', ['pack', `typescript@${version}`, '--pack-destination', cacheDir, '--silent'], {
          maxBuffer: 16 * 1024 * 1024,
        });
      } catch (e) {
        throw new Error(
          `"npm pack typescript@${version}" failed: ${(e as Error).message.trim()}. The result_persistence suite needs the npm registry once to fetch its corpus (cached in ${cacheDir} after).`,
          { cause: e },
        );
      }
    }
    tarballs.push(tarball);
    for (const entry of await readdir(repo))
      if (entry !== '.git') await rm(path.join(repo, entry), { recursive: true, force: true });
    await run('tar', ['-xzf', tarball, '--strip-components=1', '-C', repo]);
    await git('add', '-A');
    await git('commit', '-q', '-m', `typescript ${version}`);
  }
  await writeTests(repo);
  return { repo, versions: [...versions], tarballs };
}

/** A type-check with many errors and a small `node --test` suite over the real compiler. */
async function writeTests(repo: string): Promise<void> {
  const dir = path.join(repo, 'bench-tests');
  await mkdir(dir, { recursive: true });
  const broken: string[] = [];
  for (let i = 0; i < 400; i++)
    broken.push(
      `export const value${i}: number = 'text ${i}';\nexport function call${i}(a: string) { return a.toFixed(${i % 5}); }`,
    );
  await writeFile(path.join(dir, 'broken.ts'), `${broken.join('\n')}\n`);
  const libs = (await readdir(path.join(repo, 'lib'))).filter((f) => /^lib\..*\.d\.ts$/.test(f)).sort();
  await writeFile(
    path.join(dir, 'lib_files.test.cjs'),
    `const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const ts = require('../lib/typescript.js');
for (const file of ${JSON.stringify(libs)}) {
  test('parses ' + file + ' without syntax errors', () => {
    const text = fs.readFileSync(path.join(__dirname, '..', 'lib', file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    assert.strictEqual(source.parseDiagnostics.length, 0);
    // Fails on purpose for some files, so the run has failures to report.
    assert.ok(source.statements.length < 400, file + ' has ' + source.statements.length + ' statements');
  });
}
`,
  );
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
