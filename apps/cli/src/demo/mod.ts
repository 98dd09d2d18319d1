/**
 * `toolshed demo`: the bundled agent session on a copy of the bundled sample repository.
 *
 * ```ts
 * import { runDemo } from './mod.ts';
 *
 * const report = await runDemo();
 * console.log(report.greetingAfter); // return `Hello, ${name}!`;
 * ```
 *
 * @module
 */
export { demoCommand } from './demo_command.ts';
export { runDemo, type DemoCall, type DemoReport, type RunDemoOptions } from './run_demo.ts';
export { demoScript, type DemoTurn } from './demo_script.ts';
