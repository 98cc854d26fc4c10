export * from "./abort-race.js";
export * from "./abortable-sleep.js";
export * from "./async-context.js";
export * from "./callbacks.js";
export * from "./errors.js";
export * from "./ids.js";
export * from "./promise-try.js";
export * from "./runnable-config.js";
