/**
 * Test helpers for family authors: the conformance check that every family in this repo
 * also runs.
 *
 * ```ts
 * import { checkFamily } from '@toolshed/core/testing';
 * import { test, expect } from 'vitest';
 * import { fileTools as myTools } from '@toolshed/tool-fs';
 *
 * test('my family conforms', async () => {
 *   expect(await checkFamily(myTools())).toEqual([]);
 * });
 * ```
 *
 * @module
 */
export { checkFamily, type ConformanceProblem } from './check_family.ts';
