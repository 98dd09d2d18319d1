import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Bench } from 'tinybench';
import { contentToText, createSession, type Session, type ToolUseBlock } from '@toolshed/core';
import { htmlToMarkdown, webTools } from '@toolshed/tool-web';
import { resolveParams, type BenchSuite, type ResultRow, type SuiteOutcome, type SuiteRunOptions } from './_suite.ts';
import { batched, rowOf, taskRow } from './_task_stats.ts';

/** Sizes and timings of {@linkcode webSuite}. */
export interface WebBenchParams {
  /** Sections of the generated page; each is about 2.3 KB of HTML. */
  sections: number;
  /** Measuring time per task, in milliseconds. */
  timeMs: number;
  /** Minimum measured iterations per task. */
  iterations: number;
  /** Warm-up iterations per task (0: none). */
  warmupIterations: number;
  /** Cache hits per sample (a hit is too short to time alone; see `batched`). */
  hitBatch: number;
  /** Size of the huge page converted once, in MB: WebFetch's download cap is 10. */
  hugePageMB: number;
}

const TASK_READABILITY = 'htmlToMarkdown, Readability';
const TASK_BODY = 'htmlToMarkdown, whole body';
const TASK_COLD = 'WebFetch, no cache (loopback)';
const TASK_HIT = 'WebFetch, cache hit';

/**
 * WebFetch's costs: HTML→Markdown throughput on a large generated page (with Readability's
 * main-content extraction and without), and a WebFetch call answered from the 15-minute cache
 * against the same call fetching and converting the page from a loopback server every time.
 *
 * @example
 * ```ts
 * const { summary } = await webSuite.run({ quick: true });
 * summary.readabilityMBps; // megabytes of HTML converted per second
 * summary.cacheSpeedup;    // how many times faster a cache hit is than a fetch
 * ```
 */
export const webSuite: BenchSuite<WebBenchParams> = {
  name: 'web',
  description:
    'HTML→Markdown throughput of WebFetch on a large page (Readability and whole-body), the cost of converting a page as big as the download cap, and the latency of a cache hit against fetching and converting the page from a loopback server.',
  defaults: {
    full: { sections: 400, timeMs: 3000, iterations: 10, warmupIterations: 2, hitBatch: 16, hugePageMB: 10 },
    quick: { sections: 60, timeMs: 500, iterations: 4, warmupIterations: 1, hitBatch: 8, hugePageMB: 3 },
  },
  run: runWeb,
};

async function runWeb(options: SuiteRunOptions<WebBenchParams>): Promise<SuiteOutcome> {
  const params = resolveParams(webSuite, options);
  if (!Number.isInteger(params.sections) || params.sections < 1)
    throw new RangeError(`web needs at least 1 section, got ${params.sections}`);
  const page = generatePage(params.sections);
  const pageBytes = Buffer.byteLength(page);
  const stateDir = await mkdtemp(path.join(os.tmpdir(), 'toolshed-bench-web-'));
  let served = 0;
  const server = http.createServer((_req, res) => {
    served++;
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/article`;
  const sessions: Session[] = [];
  try {
    const failures: string[] = [];
    const withReadability = await htmlToMarkdown(page, { url });
    const wholeBody = await htmlToMarkdown(page, { url, readability: false });
    if (!withReadability.usedReadability)
      failures.push(
        'Readability found no article in the generated page; the Readability figure would measure the fallback',
      );
    for (const [label, result] of [
      [TASK_READABILITY, withReadability],
      [TASK_BODY, wholeBody],
    ] as const) {
      if (!result.markdown.includes('## Section 1') || result.markdown.includes('trackVisitor')) {
        failures.push(`"${label}" did not produce the expected Markdown (a section heading and no script)`);
      }
    }

    const permissions = { allow: ['WebFetch(domain:127.0.0.1)'] };
    // Under the session's 50 000-character result budget, so no result is written to disk and
    // the figures are the fetch, the conversion and the cache, not the persistence of a preview.
    const fetchOptions = { search: false as const, maxMarkdownChars: 40_000 };
    const cold = await createSession({
      cwd: stateDir,
      stateDir,
      families: [webTools({ ...fetchOptions, cache: false })],
      permissions,
    });
    const cached = await createSession({ cwd: stateDir, stateDir, families: [webTools(fetchOptions)], permissions });
    sessions.push(cold, cached);
    let seq = 0;
    const block = (): ToolUseBlock => ({
      type: 'tool_use',
      id: `toolu_${++seq}`,
      name: 'WebFetch',
      input: { url, prompt: 'Summarize the article' },
    });
    // Each path is checked before it is timed: a failing call is fast too.
    for (const [label, session, marker] of [
      [TASK_COLD, cold, ''],
      [TASK_HIT, cached, 'from the 15-minute cache'],
    ] as const) {
      await session.run([block()]); // warms the cache of the cached session
      const [result] = await session.run([block()]);
      const text = result ? contentToText(result.content) : '';
      if (!result || result.is_error || !text.includes('Section 1'))
        failures.push(`"${label}" did not return the page: ${text.slice(0, 200)}`);
      if (marker && !text.includes(marker)) failures.push(`"${label}" was not served from the cache`);
      if (text.includes('<persisted-output>'))
        failures.push(`"${label}" was persisted by the result budget; lower maxMarkdownChars`);
    }
    if (failures.length) return { results: [], summary: {}, failures };

    // Once, untimed by tinybench: a page as big as WebFetch downloads, which the converter cuts
    // to its HTML limit (the figure is what a model's worst fetch costs the event loop).
    const huge = generatePage(
      Math.max(1, Math.round((params.hugePageMB * 1024 * 1024) / (pageBytes / params.sections))),
    );
    const hugeStarted = performance.now();
    const hugeResult = await htmlToMarkdown(huge, { url });
    const hugeMs = performance.now() - hugeStarted;
    if (huge.length > 2_000_000 && hugeResult.convertedHtmlChars === undefined)
      failures.push('The huge page was converted whole; the HTML limit did not apply');

    const bench = new Bench({
      name: webSuite.name,
      time: params.timeMs,
      iterations: params.iterations,
      warmup: params.warmupIterations > 0,
      warmupIterations: params.warmupIterations,
      throws: true,
    });
    bench
      .add(TASK_READABILITY, () => htmlToMarkdown(page, { url }).then(() => undefined), { async: true })
      .add(TASK_BODY, () => htmlToMarkdown(page, { url, readability: false }).then(() => undefined), { async: true })
      .add(TASK_COLD, () => cold.run([block()]).then(() => undefined), { async: true })
      .add(
        TASK_HIT,
        batched(params.hitBatch, () => cached.run([block()])),
        { async: true },
      );
    const servedBefore = served;
    const rows = (await bench.run()).map((task) => taskRow(task, task.name === TASK_HIT ? params.hitBatch : 1));
    const coldRow = rows.find((r) => r.task === TASK_COLD);
    // Every cold call must have reached the server, and no cache hit may have.
    if (coldRow && served - servedBefore < coldRow.samples)
      failures.push(
        `The uncached session reached the server ${served - servedBefore} times for ${coldRow.samples} calls`,
      );
    const summary = {
      ...summarize(rows, pageBytes, withReadability.markdown.length, wholeBody.markdown.length),
      hugePageMB: round(Buffer.byteLength(huge) / (1024 * 1024), 1),
      hugePageConvertedChars: hugeResult.convertedHtmlChars ?? huge.length,
      hugePageMs: round(hugeMs, 0),
    };
    return { results: rows, summary, failures };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(stateDir, { recursive: true, force: true });
  }
}

function summarize(
  rows: readonly ResultRow[],
  pageBytes: number,
  readabilityChars: number,
  bodyChars: number,
): Record<string, unknown> {
  const row = (task: string): ResultRow => rowOf(rows, task);
  const [readability, body, cold, hit] = [row(TASK_READABILITY), row(TASK_BODY), row(TASK_COLD), row(TASK_HIT)];
  const mbps = (ms: number) => round(pageBytes / (1024 * 1024) / (ms / 1000), 2);
  return {
    pageKB: round(pageBytes / 1024, 1),
    readabilityMarkdownChars: readabilityChars,
    wholeBodyMarkdownChars: bodyChars,
    readabilityMeanMs: round(readability.meanMs, 2),
    readabilityMBps: mbps(readability.meanMs),
    wholeBodyMeanMs: round(body.meanMs, 2),
    wholeBodyMBps: mbps(body.meanMs),
    // A WebFetch call through the whole pipeline that fetches and converts every time.
    uncachedFetchMeanMs: round(cold.meanMs, 2),
    cacheHitMeanUs: round(hit.meanMs * 1000, 1),
    cacheHitP50Us: round(hit.p50Ms * 1000, 1),
    cacheSpeedup: round(cold.meanMs / hit.meanMs, 1),
  };
}

/** A long article page with the clutter of a real site: navigation, sidebar, scripts, footer. */
function generatePage(sections: number): string {
  const parts = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A long article about gardens</title>',
    '<style>body{font-family:sans-serif}.nav a{margin:0 4px}</style>',
    '<script>function trackVisitor(){ return fetch("/t", { method: "POST" }); } trackVisitor();</script></head><body>',
    `<header class="site"><nav class="nav">${Array.from({ length: 30 }, (_, i) => `<a href="/n/${i}">Menu ${i}</a>`).join('')}</nav></header>`,
    '<div class="layout"><aside class="sidebar"><ul>',
    ...Array.from({ length: 40 }, (_, i) => `<li><a href="/related/${i}">Related story ${i}</a></li>`),
    '</ul></aside><main><article><h1>A long article about gardens</h1><p class="byline">By A. Gardener</p>',
  ];
  for (let i = 1; i <= sections; i++) {
    parts.push(
      `<h2>Section ${i}</h2>`,
      `<p>Section ${i} explains how <strong>soil</strong>, <em>water</em> and light work together; see <a href="/guides/${i}">guide ${i}</a>. `,
      'Compost improves structure and feeds the organisms that keep roots healthy, while mulch keeps moisture in and weeds out. ',
      'Watering deeply and rarely trains roots to grow down, which makes plants sturdier in dry weeks.</p>',
      `<ul><li>Step one for part ${i}: test the soil.</li><li>Step two: add compost.</li><li>Step three: plant and water.</li></ul>`,
      `<pre><code class="language-python">def water(bed_${i}):\n    return bed_${i}.moisture &lt; 0.3</code></pre>`,
      `<table><tr><th>Plant</th><th>Sun</th><th>Water</th></tr><tr><td>Tomato ${i}</td><td>Full</td><td>High</td></tr><tr><td>Basil</td><td>Full</td><td>Medium</td></tr></table>`,
      `<blockquote>Gardening note ${i}: patience is the main ingredient.</blockquote>`,
    );
  }
  parts.push(
    '</article></main></div><footer><p>Copyright, links, cookie settings.</p></footer>',
    '<script>window.analytics = { id: 42 };</script></body></html>',
  );
  return parts.join('\n');
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
