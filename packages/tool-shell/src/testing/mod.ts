/**
 * Test tables of `@toolshed/tool-shell`: commands the read-only classifier must call read-only,
 * and commands it must not (the adversarial table). A family or an integrator that wraps Bash (or writes
 * its own classifier) can run them against its code.
 *
 * ```ts
 * import { classifyCommand } from '@toolshed/tool-shell';
 * import { NOT_READ_ONLY_EXAMPLES, READ_ONLY_EXAMPLES } from '@toolshed/tool-shell/testing';
 *
 * // The classifier needs its parser loaded first (see loadBashParser).
 * for (const command of READ_ONLY_EXAMPLES) console.assert(classifyCommand(command).readOnly);
 * for (const command of NOT_READ_ONLY_EXAMPLES) console.assert(!classifyCommand(command).readOnly);
 * ```
 *
 * @module
 */
export { NOT_READ_ONLY_EXAMPLES, READ_ONLY_EXAMPLES } from '../classification_examples.ts';
