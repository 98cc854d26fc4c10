import { z } from "zod";
import { z as z3 } from "zod/v3";
import { interrupt } from "../../graph/index.js";
import { type AIMessage, isAIMessage, type ToolCall, ToolMessage } from "../../messages/index.js";
import { createMiddleware } from "../middleware.js";
import type { AgentMiddleware, AgentRuntime, AgentState } from "../types.js";
import { copyAIMessage } from "./message-copy.js";

/**
 * What a reviewer may answer for one tool call: run it as is (`"approve"`), run an edited
 * version (`"edit"`), or refuse it (`"reject"`).
 *
 * @example
 * ```ts
 * const allowed: DecisionType[] = ["approve", "reject"];
 * ```
 */
export type DecisionType = "approve" | "edit" | "reject";

const ALL_DECISIONS: readonly DecisionType[] = ["approve", "edit", "reject"];

/**
 * A tool call as the reviewer sees or rewrites it: the tool's name and its arguments.
 *
 * @example
 * ```ts
 * const action: Action = { name: "write_file", args: { path: "notes.txt" } };
 * ```
 */
export interface Action {
  name: string;
  args: Record<string, unknown>;
}

/**
 * One tool call awaiting review, as the interrupt payload lists it.
 *
 * @example
 * ```ts
 * const request: ActionRequest = { name: "write_file", args: { path: "a.txt" }, description: "Write a.txt?" };
 * ```
 */
export interface ActionRequest extends Action {
  description?: string;
}

/**
 * Which decisions the reviewer may take for an action (same position as its
 * {@link ActionRequest}), and the JSON Schema of its arguments when one was configured.
 *
 * @example
 * ```ts
 * const config: ReviewConfig = { actionName: "write_file", allowedDecisions: ["approve", "reject"] };
 * ```
 */
export interface ReviewConfig {
  actionName: string;
  allowedDecisions: DecisionType[];
  argsSchema?: Record<string, unknown>;
}

/**
 * The value of the interrupt raised by {@link humanInTheLoopMiddleware}: one action request
 * and one review config per tool call that needs a decision, in the order of the calls.
 *
 * @example
 * ```ts
 * const request = result.__interrupt__?.[0]?.value as HITLRequest;
 * request.actionRequests.map((action) => action.name);
 * ```
 */
export interface HITLRequest {
  actionRequests: ActionRequest[];
  reviewConfigs: ReviewConfig[];
}

/**
 * Run the tool call unchanged.
 *
 * @example
 * ```ts
 * const decision: ApproveDecision = { type: "approve" };
 * ```
 */
export interface ApproveDecision {
  type: "approve";
}

/**
 * Run `editedAction` (another name and/or other arguments) in place of the call; the call keeps its id.
 *
 * @example
 * ```ts
 * const decision: EditDecision = { type: "edit", editedAction: { name: "write_file", args: { path: "safe.txt" } } };
 * ```
 */
export interface EditDecision {
  type: "edit";
  editedAction: Action;
}

/**
 * Do not run the call: the model gets an error tool message (`message`, or a default text).
 *
 * @example
 * ```ts
 * const decision: RejectDecision = { type: "reject", message: "Not in production." };
 * ```
 */
export interface RejectDecision {
  type: "reject";
  message?: string;
}

/**
 * One reviewer decision.
 *
 * @example
 * ```ts
 * const decisions: Decision[] = [{ type: "approve" }, { type: "reject" }];
 * ```
 */
export type Decision = ApproveDecision | EditDecision | RejectDecision;

/**
 * The resume value of a review: one decision per action request, in order.
 *
 * @example
 * ```ts
 * await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } satisfies HITLResponse }), config);
 * ```
 */
export interface HITLResponse {
  decisions: Decision[];
}

/**
 * Builds the description of an action request from the tool call, the state and the runtime.
 *
 * @example
 * ```ts
 * const describe: DescriptionFactory = (call) => `Send an email to ${String(call.args.to)}?`;
 * ```
 */
export type DescriptionFactory = (
  toolCall: ToolCall,
  state: AgentState,
  runtime: AgentRuntime,
) => string | Promise<string>;

/**
 * Decides per tool call whether to ask the reviewer (`true`) or let the call run (`false`).
 * It gets the call, `tool: undefined`, the state and the runtime.
 *
 * @example
 * ```ts
 * const onlyEtc: WhenPredicate = ({ toolCall }) => String(toolCall.args.path ?? "").startsWith("/etc");
 * ```
 */
export type WhenPredicate = (request: {
  toolCall: ToolCall;
  tool: undefined;
  state: AgentState;
  runtime: AgentRuntime;
}) => boolean | Promise<boolean>;

/**
 * How one tool is reviewed: the decisions allowed, an optional description (text or
 * {@link DescriptionFactory}), an optional JSON Schema for edited arguments, and an optional
 * `when` predicate.
 *
 * @example
 * ```ts
 * const config: InterruptOnConfig = { allowedDecisions: ["approve", "edit"], description: "File write" };
 * ```
 */
export interface InterruptOnConfig {
  allowedDecisions: DecisionType[];
  description?: string | DescriptionFactory;
  argsSchema?: Record<string, unknown>;
  when?: WhenPredicate;
}

/**
 * Options of {@link humanInTheLoopMiddleware}. `interruptOn` maps tool names to `true` (review
 * with every decision allowed), `false` (no review) or an {@link InterruptOnConfig}; tools not
 * listed run without review. `descriptionPrefix` (default `"Tool execution requires
 * approval"`) starts the default description. `interruptOn` may also come from the run's
 * context (the descriptions keep the factory's prefix, as in LangChain.js).
 *
 * @example
 * ```ts
 * const options: HumanInTheLoopMiddlewareConfig = { interruptOn: { write_file: true, read_file: false } };
 * ```
 */
export interface HumanInTheLoopMiddlewareConfig {
  interruptOn?: Record<string, boolean | InterruptOnConfig>;
  descriptionPrefix?: string;
}

const DEFAULT_DESCRIPTION_PREFIX = "Tool execution requires approval";

// as in LangChain.js, the hooks' runtime.context carries the prefix's default
const contextSchema = z.object({
  interruptOn: z.record(z.string(), z.unknown()).optional(),
  descriptionPrefix: z.string().default(DEFAULT_DESCRIPTION_PREFIX),
});

// The shape every run checks the options against (the factory's, overridden by the run's
// context). LangChain.js checks them with a Zod 3 schema each time the hook runs, and goes on with
// what that check gives: a review entry without `allowedDecisions` (the `{ allowAccept, allowEdit }`
// form of older docs) fails the run with the schema's `ZodError` instead of letting the tool run
// unreviewed, and `when` / `description` functions come back wrapped, so a `when` that returns
// something other than a boolean (say `undefined`) or a `description` that returns no string
// fails the run the same way.
const reviewEntryCheck = z3.object({
  allowedDecisions: z3.array(z3.enum(["approve", "edit", "reject"])),
  description: z3
    .union([
      z3.string(),
      z3
        .function()
        .args(z3.custom(), z3.custom(), z3.custom())
        .returns(z3.union([z3.string(), z3.promise(z3.string())])),
    ])
    .optional(),
  argsSchema: z3.record(z3.any()).optional(),
  when: z3
    .function()
    .args(z3.custom())
    .returns(z3.union([z3.boolean(), z3.promise(z3.boolean())]))
    .optional(),
});
const optionsCheck = z3.object({
  interruptOn: z3.record(z3.union([z3.boolean(), reviewEntryCheck])).optional(),
});

interface Outcome {
  revised: ToolCall;
  message: ToolMessage | undefined;
}

/**
 * Pauses the agent for a human review of selected tool calls, as LangChain.js's
 * `humanInTheLoopMiddleware`. After each model call whose AI message has tool calls named in
 * `interruptOn`, it raises one interrupt for all of them with a {@link HITLRequest}
 * (`{ actionRequests, reviewConfigs }`), and resumes with a {@link HITLResponse}
 * (`{ decisions }`, one per action, in order):
 *
 * - `approve` runs the call; `edit` runs `editedAction` under the same call id;
 * - `reject` answers the call with an error `ToolMessage` (`message`, or
 *   ``"User rejected the tool call for `<name>` with id <id>"``). As in LangChain.js, a batch
 *   with any rejection keeps only the rejected calls (and those that needed no review), drops
 *   the approved and edited ones, and goes back to the model (`jumpTo: "model"`).
 *
 * The reviewed calls come after the calls that needed no review in the rewritten AI message.
 * Needs a checkpointer.
 *
 * @example
 * ```ts
 * import { createAgent, humanInTheLoopMiddleware } from "agentgraph/agents";
 * import { Command, MemorySaver } from "agentgraph";
 *
 * const agent = createAgent({
 *   model,
 *   tools: [writeFile, readFile],
 *   checkpointer: new MemorySaver(),
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: { write_file: { allowedDecisions: ["approve", "reject"] } } })],
 * });
 * const config = { configurable: { thread_id: "1" } };
 * const paused = await agent.invoke({ messages: [{ role: "user", content: "Write notes.txt" }] }, config);
 * paused.__interrupt__?.[0]?.value; // { actionRequests: [...], reviewConfigs: [...] }
 * await agent.invoke(new Command({ resume: { decisions: [{ type: "approve" }] } }), config);
 * ```
 */
export function humanInTheLoopMiddleware(
  options: HumanInTheLoopMiddlewareConfig = {},
): AgentMiddleware<Record<never, never>, Record<string, unknown>, Partial<HumanInTheLoopMiddlewareConfig>> {
  const middleware = createMiddleware({
    name: "HumanInTheLoopMiddleware",
    contextSchema,
    afterModel: {
      canJumpTo: ["model"],
      hook: async (state, runtime) => {
        const context = (runtime.context ?? {}) as Partial<HumanInTheLoopMiddlewareConfig>;
        // (the prefix is not checked: in LangChain.js the context's default always replaces it)
        const checked = optionsCheck.safeParse({ interruptOn: { ...options, ...context }.interruptOn });
        if (!checked.success) throw checked.error;
        const interruptOn = checked.data.interruptOn as HumanInTheLoopMiddlewareConfig["interruptOn"];
        // the default descriptions take the factory's prefix: the context's (always set, to its
        // default at least) is not read for them, as in LangChain.js
        const prefix = options.descriptionPrefix ?? DEFAULT_DESCRIPTION_PREFIX;
        if (interruptOn === undefined) return undefined;
        const last = lastAIMessage(state.messages);
        if (last === undefined || last.tool_calls.length === 0) return undefined;

        const configs = resolveConfigs(interruptOn);
        const hookState = state as AgentState;
        const hookRuntime = runtime as AgentRuntime;
        const reviewed: Array<{ call: ToolCall; config: InterruptOnConfig }> = [];
        const autoApproved: ToolCall[] = [];
        for (const call of last.tool_calls) {
          const config = configs.get(call.name);
          const ask =
            config !== undefined &&
            (config.when === undefined ||
              (await config.when({
                toolCall: call,
                tool: undefined,
                state: hookState,
                runtime: hookRuntime,
              })));
          if (ask) reviewed.push({ call, config });
          else autoApproved.push(call);
        }
        if (reviewed.length === 0) return undefined;

        const request: HITLRequest = { actionRequests: [], reviewConfigs: [] };
        for (const { call, config } of reviewed) {
          request.actionRequests.push({
            name: call.name,
            args: call.args,
            description: await describe(call, config, prefix, hookState, hookRuntime),
          });
          const review: ReviewConfig = { actionName: call.name, allowedDecisions: config.allowedDecisions };
          if (config.argsSchema !== undefined) review.argsSchema = config.argsSchema;
          request.reviewConfigs.push(review);
        }

        const ask = runtime.interrupt ?? interrupt;
        const response = (await ask(request)) as Partial<HITLResponse> | null | undefined;
        const decisions = response?.decisions;
        if (!Array.isArray(decisions)) {
          throw new Error("Invalid HITLResponse: decisions must be a non-empty array");
        }
        if (decisions.length !== reviewed.length) {
          throw new Error(
            `Number of human decisions (${decisions.length}) does not match number of hanging tool calls (${reviewed.length}).`,
          );
        }

        const anyRejected = decisions.some((decision) => decision?.type === "reject");
        const kept: ToolCall[] = [...autoApproved];
        const answers: ToolMessage[] = [];
        reviewed.forEach(({ call, config }, i) => {
          const decision = decisions[i] as Decision;
          const outcome = applyDecision(decision, call, config);
          if (!anyRejected || decision.type === "reject") kept.push(outcome.revised);
          if (outcome.message !== undefined) answers.push(outcome.message);
        });
        return {
          messages: [copyAIMessage(last, { tool_calls: kept }), ...answers],
          jumpTo: anyRejected ? "model" : undefined,
        };
      },
    },
  });
  return middleware as unknown as AgentMiddleware<
    Record<never, never>,
    Record<string, unknown>,
    Partial<HumanInTheLoopMiddlewareConfig>
  >;
}

function lastAIMessage(messages: readonly unknown[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isAIMessage(message)) return message;
  }
  return undefined;
}

/** `true` → every decision; `false` → no review; a config (checked before) → as given. */
function resolveConfigs(interruptOn: Record<string, unknown>): Map<string, InterruptOnConfig> {
  const configs = new Map<string, InterruptOnConfig>();
  for (const [name, value] of Object.entries(interruptOn)) {
    if (value === true) configs.set(name, { allowedDecisions: [...ALL_DECISIONS] });
    else if (
      typeof value === "object" &&
      value !== null &&
      Array.isArray((value as InterruptOnConfig).allowedDecisions)
    ) {
      configs.set(name, value as InterruptOnConfig);
    }
  }
  return configs;
}

async function describe(
  call: ToolCall,
  config: InterruptOnConfig,
  prefix: string,
  state: AgentState,
  runtime: AgentRuntime,
): Promise<string> {
  if (typeof config.description === "function") return config.description(call, state, runtime);
  if (config.description !== undefined) return config.description;
  return `${prefix}\n\nTool: ${call.name}\nArgs: ${JSON.stringify(call.args, null, 2)}`;
}

function applyDecision(decision: Decision, call: ToolCall, config: InterruptOnConfig): Outcome {
  const allowed = config.allowedDecisions;
  const type = (decision as { type?: unknown } | null | undefined)?.type;
  if (type === "approve" && allowed.includes("approve")) return { revised: call, message: undefined };
  if (type === "edit" && allowed.includes("edit")) {
    const edited = (decision as Partial<EditDecision>).editedAction;
    if (edited === undefined || edited === null || typeof edited.name !== "string") {
      throw new Error(`Invalid edited action for tool "${call.name}": name must be a string`);
    }
    if (typeof edited.args !== "object" || edited.args === null) {
      throw new Error(`Invalid edited action for tool "${call.name}": args must be an object`);
    }
    return {
      revised: { type: "tool_call", name: edited.name, args: edited.args, id: call.id },
      message: undefined,
    };
  }
  if (type === "reject" && allowed.includes("reject")) {
    const text = (decision as RejectDecision).message;
    if (text !== undefined && typeof text !== "string") {
      throw new Error(`Tool call response for "${call.name}" must be a string, got ${typeof text}`);
    }
    const message = new ToolMessage({
      content: text ?? `User rejected the tool call for \`${call.name}\` with id ${call.id}`,
      name: call.name,
      tool_call_id: call.id ?? "",
      status: "error",
    });
    return { revised: call, message };
  }
  throw new Error(
    `Unexpected human decision: ${JSON.stringify(decision)}. Decision type '${String(type)}' is not allowed for tool '${call.name}'. Expected one of ${JSON.stringify(allowed)} based on the tool's configuration.`,
  );
}
