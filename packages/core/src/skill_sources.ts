import { describeError } from './describe_error.ts';
import { serviceKey, type Services } from './services.ts';

/** One argument of a skill, filled from the words after its name (in order) or given by name. */
export interface SkillArgument {
  name: string;
  description?: string | undefined;
  /** @default false */
  required?: boolean | undefined;
}

/** A skill that a source offers: listed by the Skill tool, offered to MCP clients as a prompt. */
export interface SourcedSkill {
  /** The name the model and the user call it by: `release`, `mcp__github__pr_review`. */
  name: string;
  description: string;
  /** Its arguments, in order; the last one takes the rest of the words. @default none */
  arguments?: readonly SkillArgument[] | undefined;
  /** Where it comes from, for a person: `MCP server "github"`, a `SKILL.md` path. */
  origin: string;
}

/** Options of {@linkcode SkillSource.load}. */
export interface SkillLoadOptions {
  /** The argument values by name (see {@linkcode skillArguments}). @default {} */
  arguments?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** What {@linkcode SkillSource.complete} is asked: values for one argument of one skill. */
export interface SkillCompleteRequest {
  skill: string;
  argument: string;
  /** What was typed so far. */
  value: string;
  /** The other arguments given so far. @default {} */
  context?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/**
 * Skills that come from somewhere other than the Skill tool's own folders: an MCP server's
 * prompts (the mcp family's source), the agent family's `SKILL.md` files (for a served session's
 * prompts). Registered in a session's {@linkcode SkillSources}.
 */
export interface SkillSource {
  /** A short name: `mcp`, `skills`. */
  readonly name: string;
  list(options?: { signal?: AbortSignal }): Promise<readonly SourcedSkill[]>;
  /**
   * The skill's instructions with its arguments filled in, or `undefined` for a name this source
   * does not have.
   * @throws {Error} When the source cannot give it (a server that failed, a missing argument), saying why.
   */
  load(name: string, options?: SkillLoadOptions): Promise<string | undefined>;
  /** Values for an argument that start with what was typed; absent when the source completes nothing. */
  complete?(request: SkillCompleteRequest): Promise<string[]>;
}

/** A source that could not list its skills, and why. */
export interface SkillSourceProblem {
  source: string;
  message: string;
}

/**
 * The skill sources of one session, found under {@linkcode skillSourcesKey}: the mcp family adds
 * its servers' prompts, the agent family its skill files, and the Skill tool (and a served
 * session's `prompts/list`) reads them, so that neither family imports the other.
 *
 * @example
 * ```ts
 * import { createSession, SkillSources, skillSourcesKey } from '@toolshed/core';
 *
 * const skills = new SkillSources();
 * const session = await createSession({ cwd: process.cwd(), services: [[skillSourcesKey, skills]] });
 * const { skills: listed } = await skills.list(); // what the families registered
 * ```
 */
export class SkillSources {
  #sources: SkillSource[] = [];

  /**
   * Adds a source.
   *
   * @param source The source.
   * @returns What removes it again.
   */
  add(source: SkillSource): () => void {
    this.#sources.push(source);
    return () => {
      this.#sources = this.#sources.filter((s) => s !== source);
    };
  }

  /** The sources, in the order they were added. */
  sources(): readonly SkillSource[] {
    return [...this.#sources];
  }

  /**
   * Every source's skills, an earlier source winning a name clash; a source that fails is a
   * problem, and the others are still listed.
   *
   * @param options Only the sources this keeps (`(s) => s.name !== 'skills'`), and an abort signal.
   * @returns The skills, each with the name of its source, and the problems.
   */
  async list(
    options: { signal?: AbortSignal; filter?: (source: SkillSource) => boolean } = {},
  ): Promise<{ skills: (SourcedSkill & { source: string })[]; problems: SkillSourceProblem[] }> {
    const chosen = this.#sources.filter((s) => options.filter?.(s) ?? true);
    const lists = await Promise.all(
      chosen.map((s) =>
        s.list(options.signal ? { signal: options.signal } : {}).then(
          (skills) => ({ source: s, skills }),
          (e: unknown) => ({ source: s, error: describeError(e) }),
        ),
      ),
    );
    const skills: (SourcedSkill & { source: string })[] = [];
    const problems: SkillSourceProblem[] = [];
    const seen = new Set<string>();
    for (const entry of lists) {
      if ('error' in entry) {
        problems.push({ source: entry.source.name, message: entry.error });
        continue;
      }
      for (const skill of entry.skills) {
        if (seen.has(skill.name)) continue;
        seen.add(skill.name);
        skills.push({ ...skill, source: entry.source.name });
      }
    }
    return { skills, problems };
  }

  /**
   * Loads a skill from the first source that has it.
   *
   * @param name The skill's name.
   * @param options Its arguments, an abort signal, and which sources to ask.
   * @returns Its instructions, or `undefined` when no source has it.
   * @throws {Error} What the source that has it threw.
   */
  async load(
    name: string,
    options: SkillLoadOptions & { filter?: (source: SkillSource) => boolean } = {},
  ): Promise<string | undefined> {
    const { filter, ...load } = options;
    for (const source of this.#sources) {
      if (filter && !filter(source)) continue;
      const text = await source.load(name, load);
      if (text !== undefined) return text;
    }
    return undefined;
  }
}

/**
 * The service key of a session's {@linkcode SkillSources}.
 *
 * @example
 * ```ts
 * import { skillSourcesKey, type ToolContext } from '@toolshed/core';
 * declare const ctx: ToolContext;
 *
 * const sources = ctx.services.get(skillSourcesKey); // undefined when no family registered one
 * ```
 */
export const skillSourcesKey = serviceKey<SkillSources>('toolshed.skillSources');

/**
 * The session's {@linkcode SkillSources}, made and registered on first use (by whichever family
 * sets up first, or given by the integrator in `services`).
 *
 * @param ctx A family's setup API or a call's context.
 * @returns The registry.
 *
 * @example
 * ```ts
 * import { skillSourcesOf, type FamilySetupApi, type SkillSource } from '@toolshed/core';
 * declare const api: FamilySetupApi;
 * declare const mySource: SkillSource;
 *
 * api.onClose(skillSourcesOf(api).add(mySource));
 * ```
 */
export function skillSourcesOf(ctx: { readonly services: Services }): SkillSources {
  let sources = ctx.services.get(skillSourcesKey);
  if (!sources) {
    sources = new SkillSources();
    ctx.services.set(skillSourcesKey, sources);
  }
  return sources;
}

/**
 * Reads what was written after a skill's name (`/mcp__github__pr_review 456 "two words"`) into
 * its arguments, as Claude Code does for MCP prompts: `name=value` words set that argument, the
 * other words fill the rest in order, and the last argument takes every word left. Quotes
 * (`"…"`, `'…'`) keep spaces in one word.
 *
 * @param text The words after the name.
 * @param declared The skill's arguments, in order.
 * @returns The values by name, the required arguments still missing, and the words no argument took.
 *
 * @example
 * ```ts
 * import { skillArguments } from '@toolshed/core';
 *
 * skillArguments('acme "big repo" extra', [{ name: 'owner', required: true }, { name: 'repo' }]);
 * // { values: { owner: 'acme', repo: 'big repo extra' }, missing: [], unused: [] }
 * ```
 */
export function skillArguments(
  text: string,
  declared: readonly SkillArgument[],
): { values: Record<string, string>; missing: string[]; unused: string[] } {
  const words = splitWords(text);
  const names = new Set(declared.map((a) => a.name));
  const values: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of words) {
    const eq = word.indexOf('=');
    const key = eq > 0 ? word.slice(0, eq) : undefined;
    if (key !== undefined && names.has(key) && values[key] === undefined) values[key] = word.slice(eq + 1);
    else positional.push(word);
  }
  const open = declared.filter((a) => values[a.name] === undefined);
  open.forEach((arg, i) => {
    if (i >= positional.length) return;
    values[arg.name] = i === open.length - 1 ? positional.slice(i).join(' ') : positional[i]!;
  });
  return {
    values,
    missing: declared.filter((a) => a.required && values[a.name] === undefined).map((a) => a.name),
    unused: open.length === 0 ? positional : [],
  };
}

/** Words as a shell splits them: quotes (`"…"`, `'…'`) anywhere in a word keep its spaces; `\\` escapes in double quotes. */
function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i]!;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * A skill's arguments as a usage line names them: `<required> [optional]`, in order.
 *
 * @param declared The skill's arguments.
 * @returns The usage words ('' for none).
 *
 * @example
 * ```ts
 * import { skillUsage } from '@toolshed/core';
 *
 * skillUsage([{ name: 'city', required: true }, { name: 'units' }]); // '<city> [units]'
 * ```
 */
export function skillUsage(declared: readonly SkillArgument[]): string {
  return declared.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
}

/**
 * A skill's arguments described one by one, for an error that says what to give.
 *
 * @param declared The skill's arguments.
 * @returns `name (required): description; …`.
 *
 * @example
 * ```ts
 * import { describeSkillArguments } from '@toolshed/core';
 *
 * describeSkillArguments([{ name: 'city', required: true, description: 'Where' }, { name: 'units' }]); // 'city (required): Where; units'
 * ```
 */
export function describeSkillArguments(declared: readonly SkillArgument[]): string {
  return declared
    .map((a) => `${a.name}${a.required ? ' (required)' : ''}${a.description ? `: ${a.description}` : ''}`)
    .join('; ');
}
