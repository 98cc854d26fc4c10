/**
 * The shapes of the human-in-the-loop protocol of LangGraph.js's prebuilt agents (the Agent
 * Inbox's): what a node passes to `interrupt()` to ask a person to review a tool call, and what
 * the person resumes it with. Types only: no code of this package reads them.
 *
 * @example
 * ```ts
 * const request: HumanInterrupt = {
 *   action_request: { action: "send_email", args: { to: "ann@example.com" } },
 *   config: { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: false },
 *   description: "Send this email?",
 * };
 * const [response] = interrupt<HumanInterrupt[], HumanResponse[]>([request]);
 * ```
 */

/** Which answers the reviewer may give. */
export interface HumanInterruptConfig {
  allow_ignore: boolean;
  allow_respond: boolean;
  allow_edit: boolean;
  allow_accept: boolean;
}

/** The action to review: its name and arguments. */
export interface ActionRequest {
  action: string;
  args: Record<string, unknown>;
}

/** What a node interrupts with to ask for a review. */
export interface HumanInterrupt {
  action_request: ActionRequest;
  config: HumanInterruptConfig;
  description?: string;
}

/**
 * The reviewer's answer: `accept` (`args` null), `ignore` (null), `response` (a text) or `edit`
 * (the edited action).
 */
export type HumanResponse = {
  type: "accept" | "ignore" | "response" | "edit";
  args: null | string | ActionRequest;
};
