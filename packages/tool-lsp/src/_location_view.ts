import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildTool, type ToolContext } from '@toolshed/core';
import { decidePermission, isPathInside } from '@toolshed/core/internal';
import { z } from 'zod';
import type { LocationView } from './_format.ts';
import { lineAt } from './_line_at.ts';

/** Files up to this size are read whole (once per call) to show their locations' lines. */
const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

// What Read would be asked to do for a file: the permission layer decides for this stand-in
// exactly as it would for Read itself (Read's deny, ask and allow rules, the working directories,
// the mode), so a location's text is shown only where Read would be allowed without asking.
const readProbe = buildTool({
  name: 'Read',
  description: 'Stands in for Read when the LSP tool asks whether a file may be shown.',
  inputSchema: z.object({ file_path: z.string() }),
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  resources: ({ file_path }) => [{ path: file_path, access: 'read' }],
  async call() {
    throw new Error('The Read stand-in is never called');
  },
});

/**
 * How one call shows the locations a server answered with: paths relative to the working
 * directory when inside it, a line's text only where Read would be allowed, and files a deny
 * rule covers left out. What it decided and read is kept for the call.
 */
export function locationView(ctx: ToolContext): LocationView {
  const verdicts = new Map<string, Promise<'allow' | 'ask' | 'deny'>>();
  const texts = new Map<string, Promise<string[] | 'large' | undefined>>();
  const verdict = (file: string) => {
    let known = verdicts.get(file);
    if (!known) {
      known = decidePermission(readProbe, { file_path: file }, { ctx }).then(
        (d) => d.behavior,
        () => 'deny' as const,
      );
      verdicts.set(file, known);
    }
    return known;
  };
  return {
    display(file) {
      return isPathInside(file, ctx.cwd) ? path.relative(ctx.cwd, file) || '.' : file;
    },
    async listed(file) {
      return (await verdict(file)) !== 'deny';
    },
    async readable(file) {
      return (await verdict(file)) === 'allow';
    },
    async lineText(file, line) {
      if ((await verdict(file)) !== 'allow') return undefined;
      let lines = texts.get(file);
      if (!lines) {
        // A small file is read once for all its locations; a large one (a generated bundle) is
        // streamed up to each line asked for, so that showing a line costs the line.
        lines = stat(file).then(
          async (st) => (st.size > WHOLE_FILE_BYTES ? 'large' : (await readFile(file, 'utf8')).split(/\r?\n/)),
          () => undefined,
        );
        texts.set(file, lines);
      }
      const known = await lines.catch(() => undefined);
      if (known === 'large') return await lineAt(file, line).catch(() => undefined);
      return known?.[line - 1];
    },
  };
}
