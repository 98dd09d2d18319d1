import { expect, test } from 'vitest';
import { stem } from './_analyze.ts';
import { verbSynonyms } from './_verbs.ts';

test('verbSynonyms maps a request verb to the verbs tool APIs are named with, both ways, never to itself', () => {
  expect(verbSynonyms(stem('remove'))).toContain(stem('delete'));
  expect(verbSynonyms(stem('delete'))).toContain(stem('remove'));
  expect(verbSynonyms(stem('make'))).toContain(stem('create'));
  expect(verbSynonyms(stem('fetch'))).toContain('get');
  // "store" and "save" ask for something new to be kept: a create or an add.
  expect(verbSynonyms(stem('store'))).toEqual(expect.arrayContaining([stem('create'), 'add']));
  expect(verbSynonyms(stem('save'))).toEqual(expect.arrayContaining([stem('create'), 'add']));
  // "show" is a read and a list.
  expect(verbSynonyms('show')).toEqual(expect.arrayContaining(['get', 'list']));
  for (const word of ['remove', 'create', 'show', 'search']) expect(verbSynonyms(stem(word))).not.toContain(stem(word));
});

test('verbSynonyms leaves ambiguous and non-verb words alone', () => {
  expect(verbSynonyms('open')).toEqual([]);
  expect(verbSynonyms('file')).toEqual([]);
  expect(verbSynonyms('')).toEqual([]);
});
