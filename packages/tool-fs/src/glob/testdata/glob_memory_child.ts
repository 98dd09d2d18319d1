// Runs one Glob over a folder in a process of its own (the test holds its heap small) and prints
// what Glob returned, with how much the peak RSS (VmHWM) rose: for the test that what a Glob
// holds follows the 100 names it returns, not the number of files it looked at.
import { readFileSync } from 'node:fs';
import { globFiles } from '../glob_tool.ts';

const [root, pattern] = process.argv.slice(2) as [string, string];
const peakMb = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
// Warm: the modules and the walker's first folder.
await globFiles(root, 'd000/*.none');
const before = peakMb();
const out = await globFiles(root, pattern);
process.stdout.write(JSON.stringify({ growthMb: peakMb() - before, out }));
