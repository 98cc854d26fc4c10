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
 * error (what it threw) takes its place.
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
  const optionsAt = (i: number): Options | undefined =>
    Array.isArray(options) ? (options as readonly Options[])[i] : (options as Options | undefined);
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
