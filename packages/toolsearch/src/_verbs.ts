// The verbs tool APIs are named with, and the words people use for them: a request says "make",
// "remove" or "show" where the tool says create, delete or get. A short list of the verbs of
// create / read / update / delete / search / run / send APIs, not a thesaurus: each word maps
// only to words that name the same operation on a tool. Ambiguous words ("open": a file, an
// issue, a URL) are left out. "save" and "store" ask for something new to be kept ("store a fact",
// "save a note"): a create or an add.
import { stem } from './_analyze.ts';

const GROUPS: readonly (readonly string[])[] = [
  ['create', 'add', 'new', 'make', 'insert', 'save', 'store'],
  ['get', 'fetch', 'retrieve', 'read', 'show', 'view'],
  ['list', 'enumerate', 'show'],
  ['update', 'edit', 'modify', 'change', 'patch'],
  ['delete', 'remove', 'erase', 'destroy', 'drop'],
  ['search', 'find', 'lookup', 'query'],
  ['run', 'execute', 'exec', 'invoke', 'trigger'],
  ['send', 'post', 'publish'],
  ['stop', 'kill', 'cancel', 'terminate', 'abort'],
  ['start', 'launch', 'begin'],
];

/** Stem → the stems of the words that name the same operation (itself left out). */
const SYNONYMS: ReadonlyMap<string, readonly string[]> = (() => {
  const map = new Map<string, Set<string>>();
  for (const group of GROUPS) {
    const stems = group.map(stem);
    for (const s of stems) {
      let set = map.get(s);
      if (!set) map.set(s, (set = new Set()));
      for (const other of stems) if (other !== s) set.add(other);
    }
  }
  return new Map([...map].map(([k, v]) => [k, [...v]]));
})();

/**
 * The stems that name the same tool operation as a stemmed query word (`remov` → `delet`,
 * `eras`, …), or none.
 *
 * @example
 * ```ts
 * import { stem } from './_analyze.ts';
 * import { verbSynonyms } from './_verbs.ts';
 *
 * verbSynonyms(stem('remove')).includes(stem('delete')); // true
 * ```
 */
export function verbSynonyms(term: string): readonly string[] {
  return SYNONYMS.get(term) ?? [];
}
