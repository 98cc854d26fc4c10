import { validateJsonSchema } from "./json-schema-validator.js";
import { isStandardSchema, type StandardIssue } from "./standard-schema.js";
import { isZod3Schema } from "./zod3-def-to-json-schema.js";

/**
 * The outcome of {@link validateArgs}: the parsed value, or the issues found.
 *
 * @example
 * ```ts
 * const outcome: ArgsValidation = await validateArgs(schema, args);
 * if (!outcome.success) console.log(formatIssues(outcome.issues));
 * ```
 */
export type ArgsValidation =
  | { readonly success: true; readonly value: unknown }
  | { readonly success: false; readonly issues: ReadonlyArray<StandardIssue> };

/**
 * Validates tool arguments against a Standard Schema (zod: defaults and transforms apply to
 * the returned value) or a plain JSON Schema (the value is returned unchanged).
 *
 * @example
 * ```ts
 * await validateArgs(z.object({ city: z.string() }), { city: "Suzhou" }); // { success: true, value: { city: "Suzhou" } }
 * ```
 */
export async function validateArgs(schema: unknown, args: unknown): Promise<ArgsValidation> {
  return validateArgsNow(schema, args);
}

/**
 * {@link validateArgs} without a promise when the schema validates synchronously (zod does,
 * unless it has async refinements): a tool call then costs no extra turn of the event loop.
 *
 * @example
 * ```ts
 * const outcome = validateArgsNow(schema, args);
 * const result = outcome instanceof Promise ? await outcome : outcome;
 * ```
 */
export function validateArgsNow(schema: unknown, args: unknown): ArgsValidation | Promise<ArgsValidation> {
  if (isStandardSchema(schema)) {
    const result = schema["~standard"].validate(args);
    if (result instanceof Promise) return result.then(toValidation);
    // a Zod 3 schema's issues in the order its async parse (LangChain.js's) lists them, which
    // can differ from the synchronous parse's (a union's issue comes last there)
    if (result.issues !== undefined && isZod3Schema(schema)) {
      const parseAsync = (schema as { safeParseAsync?: unknown }).safeParseAsync;
      if (typeof parseAsync === "function") return zod3Issues(parseAsync.call(schema, args), result.issues);
    }
    return toValidation(result);
  }
  if (typeof schema === "object" && schema !== null) {
    const issues = validateJsonSchema(schema as Record<string, unknown>, args);
    return issues.length === 0 ? { success: true, value: args } : { success: false, issues };
  }
  return { success: true, value: args };
}

function toValidation(result: {
  readonly value?: unknown;
  readonly issues?: ReadonlyArray<StandardIssue> | undefined;
}): ArgsValidation {
  return result.issues === undefined
    ? { success: true, value: result.value }
    : { success: false, issues: result.issues };
}

/** The issues of a Zod 3 `safeParseAsync`, or `fallback` when it does not report any. */
async function zod3Issues(parsed: unknown, fallback: ReadonlyArray<StandardIssue>): Promise<ArgsValidation> {
  const result = (await parsed) as { success?: boolean; error?: { issues?: ReadonlyArray<StandardIssue> } };
  const issues = result.success === false ? result.error?.issues : undefined;
  return { success: false, issues: issues ?? fallback };
}
