import type { AIMessage } from "../../messages/index.js";
import { type BatchOptions, runBatch } from "../../shared/index.js";
import type { BaseChatModelCallOptions, BaseLanguageModelInput } from "./types.js";

export type { BatchOptions };

/**
 * The `batch` method of a chat model, typed as LangChain.js's: results only, or (with
 * `returnExceptions: true`) a failed input's error in its place.
 */
export interface ChatModelBatch<CallOptions extends BaseChatModelCallOptions> {
  (
    inputs: BaseLanguageModelInput[],
    options?: Partial<CallOptions> | Partial<CallOptions>[],
    batchOptions?: BatchOptions & { returnExceptions?: false },
  ): Promise<AIMessage[]>;
  (
    inputs: BaseLanguageModelInput[],
    options: Partial<CallOptions> | Partial<CallOptions>[] | undefined,
    batchOptions: BatchOptions & { returnExceptions: true },
  ): Promise<(AIMessage | Error)[]>;
  (
    inputs: BaseLanguageModelInput[],
    options?: Partial<CallOptions> | Partial<CallOptions>[],
    batchOptions?: BatchOptions,
  ): Promise<(AIMessage | Error)[]>;
}

/** The `batch` of a model wrapper (bound, retrying, with fallbacks): `invoke` over the inputs. */
export function chatModelBatch<CallOptions extends BaseChatModelCallOptions>(
  invoke: (input: BaseLanguageModelInput, options: Partial<CallOptions> | undefined) => Promise<AIMessage>,
): ChatModelBatch<CallOptions> {
  return ((inputs, options, batchOptions) =>
    runBatch(inputs, options, batchOptions, invoke)) as ChatModelBatch<CallOptions>;
}
