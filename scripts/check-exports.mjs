/**
 * Checks the package's public surface, which is its `exports` map (run after `npm run build`):
 *
 *  - every subpath points at files that exist (JS and .d.ts), and every `source` entry at src/;
 *  - every subpath loads through the package name, as a user's `import "agentgraph/…"` would;
 *  - every subpath exports at least the names the API contract requires of it (REQUIRED);
 *  - every exported class keeps its name in the bundled build;
 *  - no subpath outside the contract is exported;
 *  - every package a built declaration file augments (`declare module "pkg"`) is imported by that
 *    file: TypeScript drops unused type-only imports from .d.ts files, and an augmentation of a
 *    module the program never loads is silently ignored under `skipLibCheck` (except "vitest",
 *    whose augmentation is meant only for programs that load it themselves).
 *
 * Usage: node scripts/check-exports.mjs
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

const CHANNELS = [
  "BaseChannel",
  "LastValue",
  "LastValueAfterFinish",
  "BinaryOperatorAggregate",
  "EphemeralValue",
  "Topic",
  "NamedBarrierValue",
  "NamedBarrierValueAfterFinish",
  "AnyValue",
  "UntrackedValue",
  "DeltaChannel",
];

/** Names each subpath must export (API.md); a subpath may export more. */
const REQUIRED = {
  ".": [
    "StateGraph",
    "Graph",
    "MessageGraph",
    "Annotation",
    "MessagesAnnotation",
    "START",
    "END",
    "Send",
    "Command",
    "Overwrite",
    "entrypoint",
    "task",
    "getPreviousState",
    "messagesStateReducer",
    "addMessages",
    "REMOVE_ALL_MESSAGES",
    "getConfig",
    "getWriter",
    "getStore",
    "isCommand",
    "interrupt",
    "isInterrupted",
    "MemorySaver",
    "BaseCheckpointSaver",
    "InMemoryStore",
    "BaseStore",
    "InMemoryCache",
    "BaseCache",
    ...CHANNELS,
    "GraphRecursionError",
    "InvalidUpdateError",
    "EmptyInputError",
    "EmptyChannelError",
    "GraphInterrupt",
    "NodeInterrupt",
    "ParentCommand",
    "GraphValueError",
    // LangGraph.js 1.7 additions
    "DeltaValue",
    "MessagesDeltaValue",
    "messagesDeltaReducer",
    "isInvalidResume",
    "_markInvalidResume",
    "UnknownInterruptError",
    "isUnknownInterruptError",
    "getSubgraphsSeenSet",
    "MultipleSubgraphsError",
    "RemoteException",
    "getJsonSchemaFromSchema",
    "isSerializableSchema",
    "COMMAND_SYMBOL",
    "CommandInstance",
    "NodeTimeoutError",
    "isNodeTimeoutError",
    "NodeError",
    "isNodeError",
    // @langchain/core/callbacks/dispatch
    "dispatchCustomEvent",
    "RunControl",
    "GraphDrained",
    "isGraphDrained",
  ],
  "./zod": [
    "registry",
    "withLangGraph",
    "MessagesZodMeta",
    "MessagesZodState",
    "schemaMetaRegistry",
    "SchemaMetaRegistry",
    "LanggraphZodMetaRegistry",
    "META_EXTRAS_DESCRIPTION_PREFIX",
  ],
  "./messages": [
    "BaseMessage",
    "HumanMessage",
    "AIMessage",
    "AIMessageChunk",
    "SystemMessage",
    "ToolMessage",
    "RemoveMessage",
    "ChatMessage",
    "ChatMessageChunk",
    "FunctionMessage",
    "FunctionMessageChunk",
    "isAIMessage",
    "isHumanMessage",
    "isSystemMessage",
    "isToolMessage",
    "isChatMessage",
    "isChatMessageChunk",
    "isFunctionMessage",
    "isFunctionMessageChunk",
    "coerceMessageLikeToMessage",
    "trimMessages",
    "getBufferString",
    // @langchain/core/messages 1.4 helpers
    "DEFAULT_MERGE_IGNORE_KEYS",
    "KNOWN_BLOCK_TYPES",
    "_isMessageFieldWithRole",
    "_mergeDicts",
    "_mergeLists",
    "_mergeObj",
    "_mergeStatus",
    "addNotificationMetadata",
    "getNotificationMetadata",
    "convertToOpenAIImageBlock",
    "convertToProviderContentBlock",
    "defaultToolCallParser",
    "iife",
    "isBase64ContentBlock",
    "isDataContentBlock",
    "isIDContentBlock",
    "isPlainTextContentBlock",
    "isURLContentBlock",
    "isOpenAIToolCallArray",
    "mergeResponseMetadata",
    "parseBase64DataUrl",
    "parseMimeType",
  ],
  "./prebuilt": [
    "ToolNode",
    "toolsCondition",
    "createReactAgent",
    "withAgentName",
    "ToolExecutor",
    "createAgentExecutor",
  ],
  "./tools": ["tool", "StructuredTool", "BaseToolkit", "isRunnableToolLike"],
  "./models": ["BaseChatModel", "initChatModel", "ChatOpenAI", "ChatAnthropic"],
  "./agents": [
    "createAgent",
    "createMiddleware",
    "toolStrategy",
    "providerStrategy",
    // langchain 1.5 testing helpers, provider middleware and re-exports
    "fakeModel",
    "FakeToolCallingModel",
    "langchainMatchers",
    "MIDDLEWARE_BRAND",
    "toolErrorMiddleware",
    "toolEmulatorMiddleware",
    "piiRedactionMiddleware",
    "openAIModerationMiddleware",
    "anthropicPromptCachingMiddleware",
    "bedrockPromptCachingMiddleware",
    "providerToolSearchMiddleware",
    "Tool",
    "Document",
  ],
  "./checkpoint/sqlite": ["SqliteSaver", "SqliteStore"],
  "./checkpoint/postgres": ["PostgresSaver", "PostgresStore"],
  "./testing": [
    "FakeChatModel",
    "FakeStreamingChatModel",
    "MemorySaverAssertImmutable",
    "saverConformanceCases",
  ],
  "./server": [],
  "./package.json": null,
};

const problems = [];
/** Exports that are another class under a LangChain.js name (their class name differs on purpose). */
const ALIASES = new Set([
  "CallbackManagerForLLMRun",
  // LangGraph.js names for our classes: the same class under a second name
  "BaseLangGraphError",
  "UntrackedValueChannel",
  "MemoryStore",
]);
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (!(subpath in REQUIRED)) {
    problems.push(`${subpath}: not a subpath of the API contract (docs/api.md); add it there first`);
    continue;
  }
  if (REQUIRED[subpath] === null) continue;
  for (const key of ["source", "types", "default"]) {
    const file = target[key];
    if (typeof file !== "string") {
      problems.push(`${subpath}: the "${key}" condition is missing`);
    } else if (!existsSync(join(ROOT, file))) {
      problems.push(`${subpath}: "${key}" points at ${file}, which does not exist (did the build run?)`);
    }
  }
  const specifier = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
  let mod;
  try {
    mod = await import(specifier);
  } catch (error) {
    problems.push(
      `${specifier}: cannot be imported: ${error instanceof Error ? error.message : String(error)}`,
    );
    continue;
  }
  for (const name of REQUIRED[subpath]) {
    if (!(name in mod)) problems.push(`${specifier}: does not export ${name}`);
  }
  // The bundler must not rename classes: their names show in logs (`graph.channels`) and errors.
  for (const [name, value] of Object.entries(mod)) {
    if (typeof value !== "function" || !Function.prototype.toString.call(value).startsWith("class")) continue;
    if (value.name !== name && !ALIASES.has(name)) {
      problems.push(`${specifier}: class ${name} is named "${value.name}" in the build`);
    }
  }
}

/** The .d.ts files below `dir`. */
function declarationFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return entry.name.endsWith(".d.ts") ? [path] : [];
  });
}
/**
 * Modules augmented only for programs that load them themselves: the test framework whose
 * `expect` the LangChain matchers are typed on. Importing it would make every user install it.
 */
const AUGMENTED_FOR_THEIR_USERS = new Set(["vitest"]);
for (const file of declarationFiles(join(ROOT, "dist"))) {
  const text = readFileSync(file, "utf8");
  for (const [, augmented] of text.matchAll(/^declare module "([^".][^"]*)"/gm)) {
    if (AUGMENTED_FOR_THEIR_USERS.has(augmented)) continue;
    const imported = new RegExp(`^import [^;]*from "${augmented.replace(/[/.]/g, "\\$&")}";`, "m");
    if (!imported.test(text)) {
      problems.push(
        `${file.slice(ROOT.length + 1)} augments "${augmented}" without importing it (add an import the declaration uses)`,
      );
    }
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`\n${problems.length} problem(s) with the exports map.`);
  process.exit(1);
}
console.log(`exports map: ok (${Object.keys(pkg.exports).length} subpaths)`);
