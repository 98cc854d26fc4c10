import { onAbort } from "../../shared/index.js";

const links = new WeakMap<AbortController, () => void>();

/** An AbortController that also aborts when `parent` does (the listener is removed by {@link releaseController}). */
export function linkedController(parent: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (parent !== undefined) {
    if (parent.aborted) controller.abort(parent.reason);
    else {
      links.set(
        controller,
        onAbort(parent, () => controller.abort(parent.reason)),
      );
    }
  }
  return controller;
}

/** Removes the link {@link linkedController} made, so no listener outlives the step. */
export function releaseController(controller: AbortController): void {
  const unlink = links.get(controller);
  if (unlink !== undefined) {
    unlink();
    links.delete(controller);
  }
}

/**
 * The error a run aborted through `signal` fails with, as LangChain.js makes it: the reason when
 * it is an `Error`, an `Error` with the reason as its message when it is a string, otherwise
 * `Error("Aborted")`.
 */
export function abortErrorOf(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  if (typeof reason === "string") return new Error(reason);
  return new Error("Aborted");
}
