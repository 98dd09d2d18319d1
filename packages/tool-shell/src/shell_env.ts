/**
 * Which of the host's environment variables commands see, for `shellTools({ env })`:
 *
 * - `inherit` (the default): every variable, as a terminal would;
 * - `only`: the variables a shell needs ({@linkcode BASE_ENV_NAMES}) plus the names listed
 *   (a name may end in `*`: `NODE_*`);
 * - `clean`: only {@linkcode BASE_ENV_NAMES}.
 *
 * `set` adds or overrides variables in every mode.
 *
 * @example
 * ```ts
 * import { shellTools } from '@toolshed/tool-shell';
 *
 * shellTools({ env: { inherit: 'clean', set: { CI: '1' } } });
 * shellTools({ env: { inherit: 'only', names: ['NODE_*', 'npm_config_registry'] } });
 * ```
 */
export type ShellEnvPolicy =
  | { inherit: 'inherit'; set?: Readonly<Record<string, string>> }
  | { inherit: 'only'; names: readonly string[]; set?: Readonly<Record<string, string>> }
  | { inherit: 'clean'; set?: Readonly<Record<string, string>> };

/**
 * The variables a command keeps under `clean` and `only`: what a shell and everyday tools need,
 * none of which holds a secret.
 *
 * @example
 * ```ts
 * import { BASE_ENV_NAMES } from '@toolshed/tool-shell/internal';
 *
 * BASE_ENV_NAMES.includes('PATH'); // true
 * ```
 */
export const BASE_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TMPDIR',
  'TZ',
  'PWD',
  'COLORTERM',
  'NO_COLOR',
];

/**
 * Whether a value given as `shellTools({ env })` is a policy (an object with `inherit` set to
 * `inherit`, `only` or `clean`) rather than a plain map of extra variables.
 *
 * @param value The option.
 * @returns True for a {@linkcode ShellEnvPolicy}.
 *
 * @example
 * ```ts
 * import { isShellEnvPolicy } from '@toolshed/tool-shell';
 *
 * isShellEnvPolicy({ inherit: 'clean' }); // true
 * isShellEnvPolicy({ CI: '1' });          // false
 * ```
 */
export function isShellEnvPolicy(value: unknown): value is ShellEnvPolicy {
  if (typeof value !== 'object' || value === null) return false;
  const inherit = (value as { inherit?: unknown }).inherit;
  return inherit === 'inherit' || inherit === 'only' || inherit === 'clean';
}

/**
 * The environment changes a policy makes to the host's environment: the variables to set, and
 * every host variable the policy leaves out as `undefined` (which a spawn drops).
 *
 * @param policy The policy.
 * @param host The host's environment. @default process.env
 * @returns What to spread over the host's environment.
 *
 * @example
 * ```ts
 * import { policyEnvironment } from '@toolshed/tool-shell/internal';
 *
 * policyEnvironment({ inherit: 'clean' }, { PATH: '/bin', API_KEY: 'x' }); // { API_KEY: undefined }
 * ```
 */
export function policyEnvironment(
  policy: ShellEnvPolicy,
  host: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  if (policy.inherit !== 'inherit') {
    const keep = [...BASE_ENV_NAMES, ...(policy.inherit === 'only' ? policy.names : [])];
    const kept = (name: string) => keep.some((k) => (k.endsWith('*') ? name.startsWith(k.slice(0, -1)) : name === k));
    for (const name of Object.keys(host)) if (!kept(name)) out[name] = undefined;
  }
  return { ...out, ...(policy.set ?? {}) };
}
