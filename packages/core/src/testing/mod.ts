/**
 * Test helpers for family authors: the conformance check that every family in this repo
 * also runs.
 *
 * ```ts
 * import { checkFamily } from '@toolshed/core/testing';
 * import { test, expect } from 'vitest';
 * import type { Family } from '@toolshed/core';
 * declare const myTools: () => Family; // your family's factory
 *
 * test('my family conforms', async () => {
 *   expect(await checkFamily(myTools())).toEqual([]);
 * });
 * ```
 *
 * @module
 */
export { checkFamily, type ConformanceProblem } from './check_family.ts';
export { rssGrowth, type RssGrowth } from './rss_growth.ts';
