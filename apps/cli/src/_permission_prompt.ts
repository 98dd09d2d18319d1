import { constants } from 'node:fs';
import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { isPathInside } from '@toolshed/core/internal';
import path from 'node:path';
import { loadSettings, type CanUseTool } from '@toolshed/core';
import type { CliIo } from './cli_io.ts';
import type { Prompter } from './_prompter.ts';
import { levelWord, styled } from './_style.ts';
import { escapeUnprintable, printableMessage } from './_printable.ts';

/** Where "always" saves its allow rules, relative to the project folder. */
export const LOCAL_SETTINGS_FILE = path.join('.toolshed', 'settings.local.json');

/**
 * The terminal's permission prompt: allow once, always, or deny. "Always" adds the suggested
 * allow rules (the ones core offers for the call: narrow, and none for a destructive call
 * outside the working directories, where only once or deny are offered) to the project's
 * `.toolshed/settings.local.json`, says so with the file's path, and allows the same rules for
 * the rest of the command. When the folder is not trusted, it says that the saved rules apply
 * only once it is (`toolshed trust DIR`).
 *
 * @param prompter Asks on stderr, reads stdin.
 * @param io The CLI's streams (stderr for the question, `env` for `NO_COLOR`).
 * @param options The project folder (`project`, `--cwd`, where the settings file is), whose
 *   trust list decides whether the saved rules apply (`homeDir`), and the call's one-line
 *   summary (`summaryOf`: `Bash npm test`, or '').
 * @returns The `canUseTool` callback.
 *
 * @example
 * ```ts
 * import { homedir } from 'node:os';
 * import type { CliIo } from '@toolshed/cli';
 * import { terminalPermissionPrompt } from './_permission_prompt.ts';
 * import { createPrompter } from './_prompter.ts';
 * declare const io: CliIo;
 *
 * const canUseTool = terminalPermissionPrompt(createPrompter(io), io, { project: '/p', homeDir: homedir(), summaryOf: () => '' });
 * // Bash needs approval: …
 * //   [y] allow once, [a] always allow Bash(npm test:*) (saved to .toolshed/settings.local.json), [n] deny:
 * ```
 */
export function terminalPermissionPrompt(
  prompter: Prompter,
  io: CliIo,
  {
    project,
    homeDir,
    summaryOf,
  }: { project: string; homeDir: string; summaryOf: (toolName: string, input: unknown) => string },
): CanUseTool {
  const always = new Set<string>();
  return async (toolName, input, { reason, signal, suggestions }) => {
    if (suggestions.length > 0 && suggestions.every((s) => always.has(s))) return { behavior: 'allow' };
    const summary = summaryOf(toolName, input);
    // The call's text is the model's: its escape codes are shown, so none can hide a part of it.
    const shown = escapeUnprintable(`${toolName}${summary ? ` ${summary}` : ''}`);
    io.stderr.write(
      `toolshed: ${styled(`${shown} needs approval`, { io, style: 'yellow' })}: ${printableMessage(reason)}\n`,
    );
    const rules = escapeUnprintable(suggestions.join(' '));
    const options = `[y] allow once${rules ? `, [a] always allow ${rules} (saved to ${LOCAL_SETTINGS_FILE})` : ''}, [n] deny: `;
    const answer = await Promise.race([
      prompter.ask(`  ${options}`),
      new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })),
    ]);
    const word = answer?.trim().toLowerCase() ?? '';
    if (word === 'y' || word === 'yes') return { behavior: 'allow' };
    if ((word === 'a' || word === 'always') && suggestions.length > 0) {
      for (const s of suggestions) always.add(s);
      await saveAllowRules(project, homeDir, suggestions, io);
      return { behavior: 'allow' };
    }
    if (answer === undefined) io.stderr.write('\n');
    return {
      behavior: 'deny',
      message:
        answer === undefined
          ? 'no answer at the prompt (stdin ended); pass --yes to allow such calls'
          : 'the user declined at the prompt',
    };
  };
}

/** Adds the rules to `permissions.allow` of the local settings file, keeping what else it holds. */
async function saveAllowRules(project: string, homeDir: string, rules: readonly string[], io: CliIo): Promise<void> {
  const file = path.join(project, LOCAL_SETTINGS_FILE);
  const target = await localFileTarget(project, file);
  if (target.outside !== undefined) {
    // A repository can ship the file or its folder as a link (to ~/.claude/settings.json): a
    // rule the user gave this project would then be saved, and apply, wherever it leads.
    io.stderr.write(
      `toolshed: ${levelWord('warn', io)}: not saved: ${file} leads to ${target.outside}, outside the project folder ${project}, so a rule saved there would apply beyond this project. Allowed once. Remove the link, or add ${rules.join(' ')} to permissions.allow of a settings file you choose.\n`,
    );
    return;
  }
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('it is not a JSON object');
    settings = parsed as Record<string, unknown>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      io.stderr.write(
        `toolshed: ${levelWord('warn', io)}: not saved: ${file} could not be read as settings (${(e as Error).message}); fix it and add ${rules.join(' ')} to permissions.allow. Allowed once.\n`,
      );
      return;
    }
  }
  const permissions = (
    settings['permissions'] && typeof settings['permissions'] === 'object' ? settings['permissions'] : {}
  ) as Record<string, unknown>;
  const allow = Array.isArray(permissions['allow']) ? (permissions['allow'] as unknown[]) : [];
  const added = rules.filter((r) => !allow.includes(r));
  settings['permissions'] = { ...permissions, allow: [...allow, ...added] };
  await mkdir(path.dirname(file), { recursive: true });
  // Not through a link made since the check: the file itself is opened without following one.
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;
  await writeFile(target.write, `${JSON.stringify(settings, null, 2)}\n`, { flag: flags });
  io.stderr.write(
    `toolshed: ${styled(`saved ${added.length ? added.join(' ') : rules.join(' ')}`, { io, style: 'green' })} to permissions.allow in ${file}\n`,
  );
  try {
    const loaded = await loadSettings({ cwd: project, homeDir, sources: ['local'] });
    if (loaded.untrustedProject) {
      io.stderr.write(
        `toolshed: ${project} is not trusted, so the saved rules apply in later commands only once it is: run "toolshed trust ${project}".\n`,
      );
    }
  } catch {
    // The note is a courtesy; the rule is saved and this call allowed either way.
  }
}

/**
 * Where the local settings file really is: `write` is the path to write (its folder resolved
 * through links), and `outside` is set (to where it leads) when the file or its folder is a link
 * out of the project folder.
 */
async function localFileTarget(project: string, file: string): Promise<{ write: string; outside?: string }> {
  const realProject = await realpath(project).catch(() => path.resolve(project));
  let dir = path.dirname(file);
  try {
    dir = await realpath(dir);
  } catch {
    // No .toolshed folder yet (a dangling link is caught below, by lstat).
    const info = await lstat(dir).catch(() => undefined);
    if (info?.isSymbolicLink()) return { write: file, outside: `a link that leads nowhere (${dir})` };
  }
  if (!isPathInside(dir, realProject)) return { write: file, outside: dir };
  const write = path.join(dir, path.basename(file));
  const info = await lstat(write).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    const real = await realpath(write).catch(() => undefined);
    if (real === undefined || !isPathInside(real, realProject))
      return { write, outside: real ?? 'a link that leads nowhere' };
    return { write: real };
  }
  return { write };
}
