import { basename, dirname, resolve } from 'node:path';
import { homedir } from 'node:os';
import { lintRules, type LintFinding, type RuleLayer } from '../permissions/lint_rules.ts';
import type { FamilySettingsDef } from './family_settings.ts';
import { readSettingsFile } from './read_settings_file.ts';
import { type SettingSource, settingsFileLocations, type SettingsFileLocation } from './setting_sources.ts';

/** Options of {@linkcode lintSettings}. */
export interface LintSettingsOptions {
  /** The project directory. */
  cwd: string;
  /** Which settings files to read. @default [] */
  sources?: readonly SettingSource[] | undefined;
  /** Further settings files (`--settings FILE`). @default [] */
  files?: readonly string[] | undefined;
  /** Rules given otherwise (CLI flags, session options), linted after the files. @default [] */
  layers?: readonly RuleLayer[] | undefined;
  /** The pool's tool names; without them, tool names are not checked. */
  toolNames?: readonly string[] | undefined;
  /** The configured MCP servers: rules for their tools are fine (see `LintRulesOptions`). */
  mcpServerNames?: readonly string[] | undefined;
  /** What `~` stands for. @default os.homedir() */
  homeDir?: string | undefined;
  /** Keys the loaded families own (`lsp`): checked by their schemas. @default [] */
  familySettings?: readonly FamilySettingsDef[] | undefined;
  /** Keys of families not loaded, accepted unchecked. @default [] */
  otherFamilyKeys?: readonly string[] | undefined;
}

/** What {@linkcode lintSettings} found. */
export interface SettingsLintReport {
  /** Every settings file looked at, and whether it exists. */
  files: { source: SettingsFileLocation['source']; path: string; exists: boolean }[];
  /** Problems with rules (see `lintRules`). */
  findings: LintFinding[];
  /** Problems with the files other than their rules (JSON syntax, unknown keys, bad modes, hooks). */
  problems: string[];
  /** Things ignored on purpose. */
  warnings: string[];
}

/**
 * Lints the permission rules of the settings files a session would read (and of any other
 * layers, such as CLI flags): what `toolshed rules lint` prints. Unlike `loadSettings`, a bad
 * rule does not hide the others: every rule of every file is checked, and each finding names
 * its file.
 *
 * @param options The project, the sources and files, extra layers, the pool's tool names.
 * @returns The files, the rule findings, and the files' other problems.
 *
 * @example
 * ```ts
 * import { lintSettings } from '@toolshed/core';
 * const cwd = process.cwd();
 *
 * const report = await lintSettings({ cwd, sources: ['user', 'project', 'local'], toolNames: ['Read', 'Bash'] });
 * const failed = report.problems.length > 0 || report.findings.some((f) => f.severity === 'error');
 * ```
 */
export async function lintSettings(options: LintSettingsOptions): Promise<SettingsLintReport> {
  const cwd = resolve(options.cwd);
  const home = options.homeDir ?? homedir();
  const locations = settingsFileLocations(options.sources ?? [], { projectDir: cwd, homeDir: home });
  for (const file of options.files ?? []) {
    const path = resolve(cwd, file);
    let root = dirname(path);
    if (basename(root) === '.toolshed' || basename(root) === '.claude') root = dirname(root);
    locations.push({ source: 'file', path, root });
  }
  const report: SettingsLintReport = { files: [], findings: [], problems: [], warnings: [] };
  const layers: RuleLayer[] = [];
  const additionalDirectories: string[] = [];
  for (const location of locations) {
    const result = await readSettingsFile(location.path, {
      familySettings: options.familySettings,
      otherFamilyKeys: options.otherFamilyKeys,
      claudeFile: location.source === 'claude',
    });
    report.files.push({ source: location.source, path: location.path, exists: result.exists });
    if (!result.exists && location.source === 'file')
      report.problems.push(`Settings file "${location.path}" does not exist: check the path.`);
    // Warnings about single rules come back below as findings.
    report.warnings.push(...result.warnings.filter((w) => !/": permissions\.(allow|deny|ask)\[\d+\]: /.test(w)));
    // Rule entries are linted below, with more to say than the loader's error.
    report.problems.push(
      ...result.issues.filter((i) => !/^permissions\.(allow|deny|ask)\[\d+\]$/.test(i.key)).map((i) => i.message),
    );
    const perms = isObject(result.raw) && isObject(result.raw['permissions']) ? result.raw['permissions'] : undefined;
    if (!perms) continue;
    const list = (key: string) => (Array.isArray(perms[key]) ? (perms[key] as unknown[]) : undefined);
    layers.push({
      source: location.path,
      root: location.root,
      allow: list('allow'),
      deny: list('deny'),
      ask: list('ask'),
    });
    for (const dir of list('additionalDirectories') ?? []) {
      if (typeof dir !== 'string' || dir.trim() === '') continue;
      additionalDirectories.push(
        dir === '~' || dir.startsWith('~/')
          ? resolve(home, dir.slice(1).replace(/^\//, ''))
          : resolve(location.root, dir),
      );
    }
  }
  layers.push(...(options.layers ?? []));
  report.findings = lintRules(layers, {
    cwd,
    additionalDirectories,
    toolNames: options.toolNames,
    mcpServerNames: options.mcpServerNames,
    homeDir: home,
  });
  return report;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
