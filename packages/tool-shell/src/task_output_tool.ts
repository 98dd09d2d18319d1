// TaskOutput is core's: one tool reads the background work of every family (shell commands,
// agents). The shell family lists it, and these names stay importable from here.
export { taskOutputTool, type TaskOutputResult } from '@toolshed/core';
export { taskOutputInput } from '@toolshed/core/internal';
