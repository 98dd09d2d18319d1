// TaskStop is core's: one tool ends the background work of every family (shell commands,
// agents). The shell family lists it, and these names stay importable from here.
export { taskStopTool, type TaskStopResult } from '@toolshed/core';
export { taskStopInput } from '@toolshed/core/internal';
