/** Settles like `work`, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort(work: Promise<void>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

const links = new WeakMap<AbortController, () => void>();

/** An AbortController that also aborts when `parent` does (the listener is removed by {@link releaseController}). */
export function linkedController(parent: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  if (parent !== undefined) {
    if (parent.aborted) controller.abort(parent.reason);
    else {
      const onAbort = () => controller.abort(parent.reason);
      parent.addEventListener("abort", onAbort, { once: true });
      links.set(controller, () => parent.removeEventListener("abort", onAbort));
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
