import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as vega from 'vega';
import { compile } from 'vega-lite';
import type { SuiteRecord } from './_suite.ts';
import { CHARTS, type ChartDef, type VegaLiteSpec } from './_report_charts.ts';

/** Options of {@linkcode writeReport}. */
export interface WriteReportOptions {
  /** Where `report.md` and the SVGs go, and where this run's JSON is (`bench/results`, or `bench/results/quick`). */
  outDir: string;
  /** Where the committed full-run JSON is, read for suites this run did not refresh. @default outDir */
  fullResultsDir?: string;
  /** The suites this run ran (their JSON in `outDir` is fresh). @default [] */
  refreshed?: readonly string[];
  /** Whether this run was quick. @default false */
  quick?: boolean;
  /** The charts to draw. @default CHARTS */
  charts?: readonly ChartDef[];
}

/** What {@linkcode writeReport} wrote. */
export interface ReportOutcome {
  /** The path of `report.md`. */
  file: string;
  /** The SVGs written, absolute. */
  charts: string[];
  /** Charts not drawn, with why (their suites' JSON is missing or lacks the figures). */
  skipped: string[];
}

/**
 * Writes `report.md` with SVG charts beside it (Vega-Lite compiled to Vega, rendered by Vega's
 * SVG renderer in Node: no browser). Each chart reads its suites' JSON: from `outDir` for a
 * suite this run refreshed, else from the committed full run (`fullResultsDir`). A chart whose
 * figures this full run did not refresh says the date of the run they come from; one made from a
 * quick run says so.
 *
 * @param options Where to write, where the full results are, what this run refreshed.
 * @returns The report's path, the SVGs and the charts skipped.
 * @throws {Error} When a file cannot be written (the message names it).
 *
 * @example
 * ```ts
 * await writeReport({ outDir: 'bench/results', refreshed: ['result_persistence'] });
 * ```
 */
export async function writeReport(options: WriteReportOptions): Promise<ReportOutcome> {
  const outDir = options.outDir;
  const fullDir = options.fullResultsDir ?? outDir;
  const refreshed = new Set(options.refreshed ?? []);
  const charts = options.charts ?? CHARTS;
  await mkdir(outDir, { recursive: true });
  const records: Record<string, SuiteRecord | undefined> = {};
  const suites = [...new Set(charts.flatMap((c) => c.suites))];
  for (const suite of suites) {
    records[suite] =
      (refreshed.has(suite) ? await readRecord(path.join(outDir, `${suite}.json`)) : undefined) ??
      (await readRecord(path.join(fullDir, `${suite}.json`)));
  }
  const now = new Date().toISOString();
  const out: ReportOutcome = { file: path.join(outDir, 'report.md'), charts: [], skipped: [] };
  const sections: string[] = [];
  for (const chart of charts) {
    const made = chart.make(records);
    if (!made) {
      out.skipped.push(`${chart.file}: no figures in ${chart.suites.map((s) => `${s}.json`).join(', ')}`);
      continue;
    }
    const dated = chart.suites.map((s) => records[s]).filter((r): r is SuiteRecord => r !== undefined);
    const stale = dated.filter((r) => !refreshed.has(r.suite) || r.quick !== (options.quick ?? false));
    const subtitle = dated
      .map(
        (r) =>
          `${r.suite}: ${r.quick ? 'quick run' : 'full run'} of ${r.date.slice(0, 10)}` +
          (refreshed.has(r.suite) && !r.quick ? '' : !refreshed.has(r.suite) ? ', not refreshed by this run' : ''),
      )
      .join('; ');
    const spec: VegaLiteSpec = {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      title: { text: chart.title, subtitle, anchor: 'start', subtitleColor: stale.length ? '#b45309' : '#666' },
      background: 'white',
      config: { font: 'sans-serif', view: { stroke: null } },
      ...made.spec,
    };
    const svg = await renderSvg(spec);
    const file = path.join(outDir, chart.file);
    await writeAtomic(file, svg);
    out.charts.push(file);
    sections.push(`### ${chart.title}\n\n![${chart.title}](${chart.file})\n\n${made.reading} _(${subtitle})_\n`);
  }
  const persistence = persistenceTable(records.result_persistence);
  const markdown = [
    `# Toolshed bench report`,
    '',
    `Written ${now} by ${options.quick ? 'a quick run (`--quick`: small sizes, figures for a check only)' : 'a run'} of \`pnpm bench\`` +
      `${refreshed.size ? ` (suites run: ${[...refreshed].join(', ')})` : ''}. Charts whose figures this run did not refresh say the date they come from.`,
    '',
    '| suite | run | date |',
    '| --- | --- | --- |',
    ...suites.map((s) =>
      records[s]
        ? `| ${s} | ${records[s]!.quick ? 'quick' : 'full'}${refreshed.has(s) ? ' (this run)' : ''} | ${records[s]!.date} |`
        : `| ${s} | — | no results |`,
    ),
    '',
    ...sections,
    ...(persistence ? ['## Result persistence, per policy', '', persistence, ''] : []),
    ...(out.skipped.length ? ['## Not drawn', '', ...out.skipped.map((s) => `- ${s}`), ''] : []),
  ].join('\n');
  await writeAtomic(out.file, markdown);
  return out;
}

/**
 * Renders a Vega-Lite spec to an SVG document with Vega's headless SVG renderer.
 *
 * @param spec The Vega-Lite spec (data inline).
 * @returns The SVG text.
 * @throws {Error} When the spec does not compile.
 *
 * @example
 * ```ts
 * const svg = await renderSvg({ data: { values: [{ a: 1 }] }, mark: 'point', encoding: { x: { field: 'a', type: 'quantitative' } } });
 * ```
 */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  let compiled;
  try {
    compiled = compile(spec as unknown as Parameters<typeof compile>[0]).spec;
  } catch (e) {
    throw new Error(
      `The chart's Vega-Lite spec does not compile (mark ${JSON.stringify(spec.mark)}, title ${JSON.stringify(spec.title)}): ${(e as Error).message}`,
      { cause: e },
    );
  }
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return svg.startsWith('<?xml') ? svg : `<?xml version="1.0" encoding="UTF-8"?>\n${svg}\n`;
  } finally {
    view.finalize();
  }
}

function persistenceTable(record: SuiteRecord | undefined): string | undefined {
  const policies = record?.summary.policies as Record<string, Record<string, unknown>> | undefined;
  if (!policies) return undefined;
  const fmt = (v: unknown) =>
    typeof v === 'number' ? v.toLocaleString('en-US') : v === null || v === undefined ? '—' : String(v);
  const rows = Object.entries(policies).map(
    ([name, p]) =>
      `| ${name} | ${fmt(p.totalTokens)} | ${fmt(p.totalChars)} | ${fmt(p.largestTurnTokens)} | ${fmt(p.savedOutputs)} | ${fmt(p.persistMsPerMB)} | ${typeof p.recall === 'number' ? `${(p.recall * 100).toFixed(1)}%` : '—'} | ${fmt(p.followUpTokens)} |`,
  );
  return [
    `${fmt(record!.summary.calls)} calls in ${fmt(record!.summary.turns)} turns, ${fmt(record!.summary.rawChars)} characters of output, ${fmt(record!.summary.needles)} needles (${record!.quick ? 'quick' : 'full'} run of ${record!.date.slice(0, 10)}).`,
    '',
    '| policy | tokens sent | chars sent | largest turn (tokens) | saved outputs | persist ms/MB | needle recall | follow-up tokens |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

async function readRecord(file: string): Promise<SuiteRecord | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as SuiteRecord;
  } catch {
    return undefined;
  }
}

async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, file);
  } catch (e) {
    throw new Error(`Could not write the bench report file "${file}": ${(e as Error).message}`, { cause: e });
  }
}
