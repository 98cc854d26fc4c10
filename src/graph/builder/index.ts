export {
  Annotation,
  type AnnotationFunction,
  AnnotationRoot,
  type ExtractUpdateType,
  type ExtractValueType,
  isAnnotationRoot,
  type SingleReducer,
  type StateDefinition,
  type StateType,
  type UpdateType,
} from "./annotation.js";
export { type CompileOptions, joinChannelName, withFieldCheck } from "./compile.js";
export {
  CompiledStateGraph,
  type CompiledStateGraphNode,
  type StreamChunk,
  type StreamedMessage,
  type StreamedMessageLike,
  type StreamMessageMetadata,
  type StreamMessageTypes,
  type StreamPayloads,
} from "./compiled-state-graph.js";
export {
  type DrawableEdge,
  DrawableGraph,
  type DrawableNode,
  type MermaidOptions,
  type MermaidPngOptions,
} from "./draw.js";
export {
  CompiledGraph,
  Graph,
  type GraphAddNodeOptions,
  type GraphNodeAction,
  type GraphRouter,
} from "./graph.js";
export {
  type ConditionalEdgeRouter,
  type GraphNode,
  type SchemaContext,
  type SchemaState,
  type SchemaUpdate,
  StateGraph,
  type StateGraphArgs,
  type StateGraphOptions,
  type StateSchemaInput,
} from "./state-graph.js";
export {
  DeltaValue,
  type DeltaValueInit,
  getJsonSchemaFromSchema,
  type InferStateSchemaUpdate,
  type InferStateSchemaValue,
  isSerializableSchema,
  ReducedValue,
  type ReducedValueInit,
  type SerializableSchema,
  StateSchema,
  type StateSchemaField,
  type StateSchemaFields,
  type StateSchemaFieldUpdate,
  type StateSchemaFieldValue,
  validateField as validateStateField,
} from "./state-schema.js";
export type {
  AddNodeOptions,
  EdgeSource,
  EdgeTarget,
  NodeAction,
  NodeErrorHandler,
  NodeReturn,
  PathMap,
  Router,
  RouterResult,
  RunnableLike,
  SubgraphLike,
} from "./types.js";
export {
  channelsFromZodObject,
  isZodObjectSchema,
  type ReducedZodChannel,
  type SchemaMeta,
  SchemaMetaRegistry,
  schemaMetaRegistry,
  zodDefaultGetter,
  zodObjectShape,
} from "./zod-state.js";
