// Text analysis shared by the rankers: how names, descriptions and queries become terms.
// Query and catalogue go through the same functions, so a term matches only itself.

/** A tool name taken apart: its words, and whether it is an MCP tool (`mcp__server__tool`). */
export interface NameParts {
  /** Lower-case words of the name, in order (`mcp__slack__send_message` → slack, send, message). */
  words: string[];
  /** The same words, stemmed. */
  stems: string[];
  /** camelCase segments kept whole and lower-cased (`getInventory` → getinventory), so a query naming the identifier matches it. */
  compounds: string[];
  isMcp: boolean;
  /** The server of an MCP name. */
  server: string | undefined;
}

// Words that carry no meaning for choosing a tool. Short on purpose: a word such as "file",
// "search" or "list" is a stopword in prose but the very thing a tool query is about.
const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could do does for from had has have he her his how i if in into is it its ' +
    'me my no not of on or our please she should so some such than that the their them then there these they this ' +
    'those to too us was we were what when where which who whom why will with would you your also just about any ' +
    'want need like know tell give help am im let lets get got some more most very much many each every all ' +
    'able sure could would might may must shall ive id youre theyre dont doesnt cant wont isnt arent'
  ).split(' '),
);

/**
 * Splits an identifier or a run of text into lower-case words: on anything that is not a
 * letter or digit, between camelCase humps (`getHTTPResponse` → get, http, response) and
 * between letters and digits (`utf8` stays whole, `v2api` → v2, api is not attempted: digits
 * stay with the letters before them).
 */
export function splitWords(text: string): string[] {
  return scan(text, undefined);
}

/**
 * Words, and (into `compounds`) the camelCase chunks whole. A hand-written scanner: index
 * builds split every name, description and parameter, and regular expressions with Unicode
 * classes were most of the build time. A character outside ASCII is classed once by those
 * classes and kept in a table, so a description with one curly quote or accent no longer takes a
 * slower path; text with characters outside the Basic Multilingual Plane (surrogate pairs) does.
 */
function scan(text: string, compounds: string[] | undefined): string[] {
  const out: string[] = [];
  const n = text.length;
  let start = -1;
  let chunkStart = -1;
  let camel = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (c >= 0xd800 && c <= 0xdfff) return scanUnicode(text, compounds);
    const kind = classOf(c);
    if (kind === SEPARATOR) {
      if (start >= 0) {
        out.push(text.slice(start, i).toLowerCase());
        if (camel && compounds) compounds.push(text.slice(chunkStart, i).toLowerCase());
      }
      start = -1;
      camel = false;
      continue;
    }
    if (start < 0) {
      start = chunkStart = i;
      continue;
    }
    if (kind === UPPER) {
      const prev = classOf(text.charCodeAt(i - 1));
      const next = i + 1 < n ? classOf(text.charCodeAt(i + 1)) : SEPARATOR;
      // camelCase (`getHttp`) and an acronym before a word (`HTTPResponse`).
      if (prev === LOWER || (prev === UPPER && next === LOWER)) {
        if (prev === LOWER) camel = true;
        out.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    }
  }
  return out;
}

const SEPARATOR = 1;
const LOWER = 2;
const UPPER = 3;
/** A letter that is neither (a digit, a CJK character, a title-case letter). */
const OTHER = 4;
/** Per UTF-16 code unit: 0 not classed yet, else one of the kinds above. */
const KINDS = new Uint8Array(0x10000);

/** What a character is to the scanner: a separator, a lower-case or upper-case letter, or another letter or digit. */
function classOf(c: number): number {
  let kind = KINDS[c]!;
  if (kind === 0) {
    const ch = String.fromCharCode(c);
    kind = !/[\p{L}\p{N}]/u.test(ch) ? SEPARATOR : /\p{Ll}/u.test(ch) ? LOWER : /\p{Lu}/u.test(ch) ? UPPER : OTHER;
    KINDS[c] = kind;
  }
  return kind;
}

function scanUnicode(text: string, compounds: string[] | undefined): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^\p{L}\p{N}]+/u)) {
    if (!chunk) continue;
    if (compounds && /\p{Ll}\p{Lu}/u.test(chunk)) compounds.push(chunk.toLowerCase());
    const spaced = chunk.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
    for (const word of spaced.split(' ')) if (word) out.push(word.toLowerCase());
  }
  return out;
}

/**
 * A light stemmer: plural and verb endings only (`messages` → message, `searching` → search,
 * `queries` → query, `listed` → list), so "send message" finds `send_messages`. Deliberately
 * conservative: a wrong merge costs more than a missed one.
 */
export function stem(word: string): string {
  return known(word).stem;
}

/**
 * Words already stemmed: a catalogue repeats its words (every tool of an API says "data", "get",
 * "the user's …"), and the stemmer's tests are regular expressions, which were a fifth of an
 * index build. Each word is kept once with its stem, which is the same string when stemming
 * changes nothing; the index then holds one string per word, whose hash maps compute once, and
 * tells a changed word from its stem by one reference comparison. Bounded: emptied when full.
 */
const STEMS = new Map<string, { word: string; stem: string }>();
const MAX_STEMS = 100_000;

/** The word as kept, and its stem. */
function known(word: string): { word: string; stem: string } {
  let entry = STEMS.get(word);
  if (entry === undefined) {
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    const stemmed = stemOf(word);
    entry = { word, stem: stemmed === word ? word : stemmed };
    STEMS.set(word, entry);
  }
  return entry;
}

function stemOf(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (/(sses|xes|ches|shes|zzes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(ss|us|is|os|as)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed'))
    w = undouble(w.endsWith('ied') ? `${w.slice(0, -3)}y` : w.slice(0, -2));
  // A trailing silent e goes, so "create", "creates", "created" and "creating" meet.
  if (w.length > 4 && w.endsWith('e') && !w.endsWith('ee')) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([bdgmnprt])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** Whether a lower-case word is a stopword. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** The stemmed content words of a text: split, stopwords and one-letter words dropped, stemmed. */
export function terms(text: string): string[] {
  const compounds: string[] = [];
  const words = scan(text, compounds);
  const out: string[] = compounds;
  for (const word of words) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** A text's stemmed content words ({@linkcode terms}) and the same words as written ({@linkcode surfaceTerms}). */
export interface TermsAndWords {
  terms: string[];
  words: string[];
}

/**
 * The stemmed content words of a text and its content words as written, from one scan: what
 * {@linkcode terms} and {@linkcode surfaceTerms} give, for the cost of one (an index analyses every
 * description and parameter of a catalogue once, and needs both).
 *
 * @example
 * ```ts
 * import { termsAndWords } from './_analyze.ts';
 *
 * termsAndWords('Lists the open pull requests'); // { terms: ['list', 'open', 'pull', 'request'], words: ['lists', 'open', 'pull', 'requests'] }
 * ```
 */
export function termsAndWords(text: string): TermsAndWords {
  const compounds: string[] = [];
  const scanned = scan(text, compounds);
  const words: string[] = [];
  const out: string[] = compounds;
  for (const word of scanned) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    const entry = known(word);
    words.push(entry.word);
    out.push(entry.stem);
  }
  return { terms: out, words };
}

/**
 * Where a description's first sentence ends: after the first `.`, `!` or `?` followed by a space
 * or a line break, or at the first line break; the text's length when it is one sentence. The
 * opening of a tool's description says what the tool does; what follows says how to call it
 * (arguments, limits, examples, errors).
 *
 * @example
 * ```ts
 * import { leadEnd } from './_analyze.ts';
 *
 * leadEnd('Get the cities. Pass a country code (ISO 3166) to filter.'); // 15
 * leadEnd('Search by title\nError Responses: 400'); // 15
 * ```
 */
export function leadEnd(text: string): number {
  const end = /[.!?](?=\s)|\n/.exec(text);
  return end ? end.index + (end[0] === '\n' ? 0 : 1) : text.length;
}

/** The content words of a text as written (lower-cased, not stemmed): split, stopwords and one-letter words dropped. */
export function surfaceTerms(text: string): string[] {
  return termsAndWords(text).words;
}

/** What the ranker reads from a query besides its terms (see {@linkcode queryParts}). */
export interface QueryParts {
  /** The content words as written ({@linkcode surfaceTerms}). */
  words: string[];
  /** Adjacent content words, stemmed, joined by a space ({@linkcode phrases}). */
  pairs: string[];
  /** The stems of the content words that can name an operation ({@linkcode operationTerms}). */
  operations: string[];
}

/**
 * A query's words as written, its word pairs and its operation words, from one scan of its text.
 *
 * @example
 * ```ts
 * import { queryParts } from './_analyze.ts';
 *
 * queryParts('list stopped containers'); // { words: ['list', 'stopped', 'containers'], pairs: ['list stop', 'stop container'], operations: ['list', 'container'] }
 * ```
 */
export function queryParts(text: string): QueryParts {
  const { terms: all, words } = termsAndWords(text);
  // The stems of the words follow the camelCase compounds.
  const stems = all.slice(all.length - words.length);
  const pairs: string[] = [];
  for (let i = 1; i < stems.length; i++) pairs.push(`${stems[i - 1]} ${stems[i]}`);
  const operations = stems.filter((s, i) => !isParticiple(words[i]!, s));
  return { words, pairs, operations };
}

/**
 * The stemmed content words of a query that can name the operation it asks for: every content
 * word but a past participle ("stored", "deleted", "stopped"), which describes what the request
 * is about ("everything stored in memory", "list stopped containers") rather than what it wants
 * done. The verb synonyms are taken from these words only.
 */
export function operationTerms(text: string): string[] {
  return queryParts(text).operations;
}

/** Whether a word is an `-ed` form its stem came from (`stored` → stor), not a word that ends so (`need`, `bed`). */
function isParticiple(word: string, stemmed: string): boolean {
  return word.endsWith('ed') && !word.endsWith('eed') && stemmed !== word && stemmed.length < word.length - 1;
}

/**
 * The word pairs of a text, in order: adjacent content words (stopwords and one-letter words
 * left out, stemmed) joined by a space, so "open a pull request" gives "open pull" and "pull
 * request". A phrase two tools share is stronger evidence than its two words apart.
 */
export function phrases(text: string): string[] {
  return queryParts(text).pairs;
}

/**
 * How many requests a query holds: its sentences (ended by `.`, `?` or `!` before a further
 * word) plus the words that open another request inside one ("also", "additionally",
 * "furthermore", "moreover"). A list of distinct needs reads "… ? Also, …"; one task in several
 * steps is usually one sentence with commas and "then".
 */
export function requestCount(text: string): number {
  const sentences = text.split(/[.?!]+\s+(?=\S)/).filter((s) => /[\p{L}\p{N}]/u.test(s)).length;
  const openers = (text.match(/\b(also|additionally|furthermore|moreover|besides)\b/gi) ?? []).length;
  return Math.max(1, sentences) + openers;
}

/**
 * Takes a tool name apart: `mcp__server__tool` names are MCP tools whose words are the
 * server's and the tool's; other names split on `_`, `-`, `.` and camelCase.
 */
export function nameParts(name: string): NameParts {
  const mcp = /^mcp__([^_].*?)__(.+)$/.exec(name);
  const words = splitWords(name).filter((w) => !(mcp && w === 'mcp'));
  return {
    words,
    stems: words.map(stem),
    compounds: compoundsOf(mcp ? mcp[2]! : name),
    isMcp: mcp !== null,
    server: mcp ? mcp[1] : undefined,
  };
}

/** Segments between `_`, `-`, `.` or spaces that are camelCase, lower-cased whole. */
export function compoundsOf(text: string): string[] {
  const compounds: string[] = [];
  scan(text, compounds);
  return compounds;
}

/** Names and descriptions of a JSON Schema's properties, nested ones included (depth-limited). */
export function schemaText(schema: unknown, depth = 0): string {
  if (!schema || typeof schema !== 'object' || depth > 3) return '';
  const parts: string[] = [];
  const properties = (schema as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') {
    for (const [key, value] of Object.entries(properties as Record<string, unknown>)) {
      parts.push(key);
      if (value && typeof value === 'object') {
        const description = (value as { description?: unknown }).description;
        if (typeof description === 'string') parts.push(description);
        parts.push(schemaText(value, depth + 1));
        const items = (value as { items?: unknown }).items;
        if (items) parts.push(schemaText(items, depth + 1));
      }
    }
  }
  return parts.filter(Boolean).join(' ');
}
