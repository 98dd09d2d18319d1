import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A stand-in for ripgrep whose timing the test decides: the sorted run (`--sort` among its
 * arguments) prints `SORTED_FIRST` lines, then waits `SORTED_WAIT_MS` before the rest; the
 * unsorted run prints every line in reverse file order after `UNSORTED_WAIT_MS`, padded to
 * `UNSORTED_PAD` bytes of extra lines when set. Each run appends its pid and kind to `LOG`.
 */
const FAKE_RG_SOURCE = `#!${process.execPath}
const fs = require('node:fs');
const sorted = process.argv.includes('--sort');
fs.appendFileSync(process.env.LOG, (sorted ? 'sorted ' : 'unsorted ') + process.pid + '\\n');
const lines = [];
for (let f = 0; f < 6; f++) for (let n = 1; n <= 3; n++) lines.push('f' + f + '.ts\\0' + n + ':hit ' + f + ' ' + n + '\\n');
const out = (text) => new Promise((r) => process.stdout.write(text, r));
(async () => {
  if (sorted) {
    const first = Number(process.env.SORTED_FIRST);
    await out(lines.slice(0, first).join(''));
    await new Promise((r) => setTimeout(r, Number(process.env.SORTED_WAIT_MS)));
    await out(lines.slice(first).join(''));
  } else {
    await new Promise((r) => setTimeout(r, Number(process.env.UNSORTED_WAIT_MS)));
    const byFile = [];
    for (let f = 5; f >= 0; f--) byFile.push(lines.slice(f * 3, f * 3 + 3).join(''));
    const pad = Number(process.env.UNSORTED_PAD || 0);
    if (pad) await out(('zz.ts\\0' + '1:' + 'x'.repeat(100) + '\\n').repeat(Math.ceil(pad / 108)));
    await out(byFile.join(''));
  }
})();
`;

/**
 * Writes the stand-in as an executable `rg` in `dir`.
 *
 * @param dir A temporary folder.
 * @returns The stand-in's path.
 *
 * @example
 * ```ts
 * import { writeFakeRg } from './_test_fake_rg.ts';
 *
 * const rg = await writeFakeRg('/tmp/t');
 * ```
 */
export async function writeFakeRg(dir: string): Promise<string> {
  const rg = path.join(dir, 'rg');
  await writeFile(rg, FAKE_RG_SOURCE);
  await chmod(rg, 0o755);
  return rg;
}
