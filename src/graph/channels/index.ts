export { AnyValue } from "./any-value.js";
export { BaseChannel, isBaseChannel, MISSING, type Missing } from "./base.js";
export { type BinaryOperator, BinaryOperatorAggregate } from "./binary-operator-aggregate.js";
export {
  DeltaChannel,
  type DeltaChannelOptions,
  type DeltaPendingWrite,
  type DeltaReducer,
} from "./delta.js";
export { EphemeralValue } from "./ephemeral-value.js";
export { LastValue } from "./last-value.js";
export { LastValueAfterFinish } from "./last-value-after-finish.js";
export { NamedBarrierValue } from "./named-barrier-value.js";
export { NamedBarrierValueAfterFinish } from "./named-barrier-value-after-finish.js";
export { Topic, type TopicOptions } from "./topic.js";
export {
  UntrackedValue,
  /** The channel class of an `UntrackedValue` state field (LangGraph.js's name); an `UntrackedValue`. */
  UntrackedValueChannel,
  type UntrackedValueInit,
  type UntrackedValueOptions,
} from "./untracked-value.js";
