/** LangChain.js's `RunnableBatchOptions`: how `batch` runs and reports its inputs. */
export interface BatchOptions {
  /** How many inputs run at once (the per-call options' `maxConcurrency` wins when set). */
  maxConcurrency?: number;
  /** Give a failed input its error in its place instead of rejecting the whole batch. */
  returnExceptions?: boolean;
}

/**
 * Runs `invoke` over `inputs` with at most `maxConcurrency` calls at once, results in input order
 * (LangChain.js's `Runnable.batch`, which models, tools and compiled graphs all offer). `options`
 * is one set of options for every input, or one per input; the first input's `maxConcurrency`
 * wins over the batch option's, as in LangChain.js. With `returnExceptions` a failed input's
 * error (what it threw) takes its place. A list of options must have one per input, and a
 * `runId` in shared options names the first input's run only (with LangChain.js's warning).
 *
 * @example
 * ```ts
 * const out = await runBatch([1, 2], undefined, { maxConcurrency: 1 }, async (n) => n * 2); // [2, 4]
 * ```
 */
export async function runBatch<Input, Options, Output>(
  inputs: readonly Input[],
  options: Options | readonly Options[] | undefined,
  batchOptions: BatchOptions | undefined,
  invoke: (input: Input, options: Options | undefined) => Promise<Output>,
): Promise<(Output | Error)[]> {
  if (Array.isArray(options) && options.length !== inputs.length) {
    throw new Error(
      `Passed "options" must be an array with the same length as the inputs, but got ${options.length} options for ${inputs.length} inputs`,
    );
  }
  // one run id names one run: the first input's, as in LangChain.js
  let rest: Options | undefined;
  const runId = (options as { runId?: unknown } | undefined)?.runId;
  if (!Array.isArray(options) && inputs.length > 1 && runId) {
    console.warn("Provided runId will be used only for the first element of the batch.");
    rest = { ...(options as object), runId: undefined } as Options;
  }
  const optionsAt = (i: number): Options | undefined =>
    Array.isArray(options)
      ? (options as readonly Options[])[i]
      : i > 0 && rest !== undefined
        ? rest
        : (options as Options | undefined);
  const first = optionsAt(0) as { maxConcurrency?: number | undefined } | undefined;
  const requested = first?.maxConcurrency ?? batchOptions?.maxConcurrency;
  const limit = Math.max(1, Number(requested ?? inputs.length));
  const results: (Output | Error)[] = new Array(inputs.length);
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      try {
        results[i] = await invoke(inputs[i] as Input, optionsAt(i));
      } catch (error) {
        // LangChain.js's batch rejects with an Error made from a thrown non-Error's text
        if (batchOptions?.returnExceptions !== true)
          throw error instanceof Error ? error : new Error(String(error));
        results[i] = error as Error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, inputs.length) }, worker));
  return results;
}
