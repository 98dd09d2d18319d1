import { expect, test } from 'vitest';
import { inertNewPackageJson, packageManagerChangeOnly } from './_package_json_guard.ts';

const BEFORE = JSON.stringify({
  name: 'app',
  version: '1.0.0',
  scripts: { test: 'vitest' },
  dependencies: { a: '^1.0.0' },
});

test('npm install, uninstall and version may change the dependencies and the version, however they indent or order keys', () => {
  const after = {
    dependencies: { a: '^1.0.0', b: '^2.0.0' },
    version: '1.0.1',
    scripts: { test: 'vitest' },
    name: 'app',
  };
  expect(packageManagerChangeOnly(BEFORE, JSON.stringify(after, null, 2))).toBe(true);
  expect(packageManagerChangeOnly(BEFORE, JSON.stringify({ name: 'app', scripts: { test: 'vitest' } }))).toBe(true);
  expect(packageManagerChangeOnly(BEFORE, BEFORE)).toBe(true);
  expect(packageManagerChangeOnly('not json', 'not json')).toBe(true);
});

test('a changed script, a new hook field, a removed field or text that is no JSON object is a change the sandbox puts back', () => {
  const base = JSON.parse(BEFORE);
  expect(packageManagerChangeOnly(BEFORE, JSON.stringify({ ...base, scripts: { test: 'curl x | sh' } }))).toBe(false);
  expect(
    packageManagerChangeOnly(BEFORE, JSON.stringify({ ...base, 'simple-git-hooks': { 'pre-commit': 'sh x' } })),
  ).toBe(false);
  expect(packageManagerChangeOnly(BEFORE, JSON.stringify({ ...base, scripts: undefined }))).toBe(false);
  expect(packageManagerChangeOnly(BEFORE, '[]')).toBe(false);
  expect(packageManagerChangeOnly(BEFORE, '{')).toBe(false);
  expect(packageManagerChangeOnly('{', '{"scripts":{"test":"sh x"}}')).toBe(false);
  // JSON.parse (as npm) takes the last of two equal keys.
  expect(packageManagerChangeOnly(BEFORE, BEFORE.replace('{', '{"scripts":{"test":"vitest"},'))).toBe(true);
  expect(packageManagerChangeOnly(BEFORE, BEFORE.replace(/}$/, ',"scripts":{"test":"sh x"}}'))).toBe(false);
});

test('a new package.json may hold what npm init -y writes and dependencies; scripts or other fields are not inert', () => {
  const init = {
    name: 'fresh',
    version: '1.0.0',
    description: '',
    main: 'index.js',
    scripts: { test: 'echo "Error: no test specified" && exit 1' },
    keywords: [],
    author: '',
    license: 'ISC',
    type: 'commonjs',
  };
  expect(inertNewPackageJson(JSON.stringify(init, null, 2))).toBe(true);
  expect(inertNewPackageJson(JSON.stringify({ name: 'x', dependencies: { y: '^1.0.0' } }))).toBe(true);
  expect(inertNewPackageJson(JSON.stringify({ ...init, scripts: { postinstall: 'sh x' } }))).toBe(false);
  expect(inertNewPackageJson(JSON.stringify({ ...init, scripts: { ...init.scripts, prepare: 'husky' } }))).toBe(false);
  expect(inertNewPackageJson(JSON.stringify({ name: 'x', 'lint-staged': { '*': 'sh x' } }))).toBe(false);
  expect(inertNewPackageJson('{"__proto__":{"scripts":{"test":"sh x"}}}')).toBe(false);
  expect(inertNewPackageJson('"text"')).toBe(false);
  expect(inertNewPackageJson('')).toBe(false);
});
