import { execFile, execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CHARTS } from './_report_charts.ts';
import { renderSvg, writeReport } from './report.ts';

const RESULTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'results');

let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-report-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Parses an SVG document strictly; returns its root element's attributes. */
function parseSvg(text: string, name: string): Record<string, string> {
  const valid = XMLValidator.validate(text);
  expect(valid, `${name}: ${JSON.stringify(valid)}`).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text) as Record<
    string,
    unknown
  >;
  const svg = doc.svg as Record<string, string> | undefined;
  expect(svg, `${name} has no <svg> root`).toBeDefined();
  expect(svg!.xmlns).toBe('http://www.w3.org/2000/svg');
  expect(Number(svg!.width)).toBeGreaterThan(100);
  expect(Number(svg!.height)).toBeGreaterThan(50);
  return svg!;
}

function chromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not this one
    }
  }
  return undefined;
}

describe('writeReport', () => {
  test('writeReport draws every chart from the committed results as SVG that parses, and report.md embeds each', async () => {
    const out = await writeReport({ outDir: dir, fullResultsDir: RESULTS_DIR });
    expect(out.skipped).toEqual([]);
    expect(out.charts.map((c) => path.basename(c))).toEqual(CHARTS.map((c) => c.file));
    const report = await readFile(out.file, 'utf8');
    for (const chart of out.charts) {
      const text = await readFile(chart, 'utf8');
      parseSvg(text, path.basename(chart));
      expect(report).toContain(`](${path.basename(chart)})`);
      // None of this run's: every chart says the date of the run it comes from.
      expect(text).toMatch(/full run of \d{4}-\d{2}-\d{2}, not refreshed by this run/);
    }
    expect(report).toContain('| policy | tokens sent |');
  });

  test('a chart made from a suite this run refreshed does not call itself stale; one from a quick run says so', async () => {
    const record = JSON.parse(await readFile(path.join(RESULTS_DIR, 'parallel_scheduling.json'), 'utf8'));
    await writeFile(
      path.join(dir, 'parallel_scheduling.json'),
      JSON.stringify({ ...record, quick: true, date: '2030-01-02T00:00:00.000Z' }),
    );
    const charts = CHARTS.filter((c) => c.file === 'parallel_speedup.svg');
    await writeReport({
      outDir: dir,
      fullResultsDir: RESULTS_DIR,
      refreshed: ['parallel_scheduling'],
      quick: true,
      charts,
    });
    const svg = await readFile(path.join(dir, 'parallel_speedup.svg'), 'utf8');
    expect(svg).toContain('quick run of 2030-01-02');
    expect(svg).not.toContain('not refreshed');
  });

  test('writeReport skips, and names, a chart whose results are missing or lack the figures', async () => {
    await writeFile(
      path.join(dir, 'fs_grep.json'),
      JSON.stringify({
        suite: 'fs_grep',
        date: '2030-01-01T00:00:00Z',
        quick: false,
        results: [],
        summary: {},
        failures: [],
      }),
    );
    const out = await writeReport({ outDir: dir, fullResultsDir: dir });
    expect(out.charts).toEqual([]);
    expect(out.skipped).toHaveLength(CHARTS.length);
    expect(out.skipped.find((s) => s.startsWith('grep_glob_vs_ripgrep.svg'))).toContain('fs_grep.json');
    expect(await readFile(out.file, 'utf8')).toContain('## Not drawn');
  });

  test('the report and charts committed in bench/results parse as SVG', async () => {
    const svgs = (await readdir(RESULTS_DIR)).filter((f) => f.endsWith('.svg'));
    expect(svgs.sort()).toEqual(CHARTS.map((c) => c.file).sort());
    const report = await readFile(path.join(RESULTS_DIR, 'report.md'), 'utf8');
    for (const file of svgs) {
      parseSvg(await readFile(path.join(RESULTS_DIR, file), 'utf8'), file);
      expect(report).toContain(`](${file})`);
    }
  });

  test('renderSvg rejects a spec that does not compile, saying why', async () => {
    await expect(renderSvg({ mark: 'no-such-mark' })).rejects.toThrow(/no-such-mark/i);
  });
});

const browser = chromium();
if (!browser)
  console.log("skipped: the headless screenshot of the report's SVGs needs chromium (apt-get install chromium)");
test.skipIf(!browser)(
  'a headless Chromium opens every chart and paints it',
  async () => {
    const out = await writeReport({ outDir: dir, fullResultsDir: RESULTS_DIR });
    for (const chart of out.charts) {
      const html = `${chart}.html`;
      await copyFile(chart, `${chart}.copy.svg`);
      await writeFile(
        html,
        `<!doctype html><html><body style="margin:0"><img id="c" src="${path.basename(chart)}.copy.svg"></body></html>`,
      );
      const png = `${chart}.png`;
      await promisify(execFile)(
        browser!,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          `--screenshot=${png}`,
          '--window-size=700,500',
          `file://${html}`,
        ],
        { timeout: 60_000 },
      );
      const bytes = await readFile(png);
      // A PNG, and not a blank page: a white 700×500 screenshot compresses to well under 5 KB.
      expect(bytes.subarray(1, 4).toString()).toBe('PNG');
      expect((await stat(png)).size, path.basename(chart)).toBeGreaterThan(5_000);
    }
  },
  240_000,
);
