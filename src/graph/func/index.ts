export {
  type EntrypointFinal,
  type EntrypointFunction,
  type EntrypointOptions,
  entrypoint,
  getPreviousState,
} from "./entrypoint.js";
export { type TaskOptions, task } from "./task.js";
