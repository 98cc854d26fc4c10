export {
  BaseCheckpointSaver,
  type CheckpointListOptions,
  type CheckpointTuple,
  copyCheckpoint,
  getCheckpointId,
  isCheckpointSaver,
  maxChannelVersion,
  putOneByOne,
  type SaverBatchOp,
  SCHEDULED,
  WRITES_IDX_MAP,
} from "./base-saver.js";
export {
  compareChannelVersions,
  compareWritesSortKeys,
  DeltaSnapshot,
  deepCopy,
  EXCLUDED_METADATA_KEYS,
  isDeltaSnapshot,
  uuid5,
  uuid6,
  type WritesSortKey,
  writesSortKey,
} from "./compat.js";
export { emptyCheckpoint } from "./empty.js";
export * from "./encoding/index.js";
export { codecOf, MemorySaver } from "./memory-saver.js";
export * from "./serde/index.js";
export {
  CHECKPOINT_FORMAT_VERSION,
  type ChannelVersion,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointSource,
  type DeltaChannelHistory,
  type PendingWrite,
} from "./types.js";
