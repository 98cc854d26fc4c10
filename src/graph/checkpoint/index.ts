export { emptyCheckpoint } from "./empty.js";
export {
  CHECKPOINT_FORMAT_VERSION,
  type ChannelVersion,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointSource,
  type PendingWrite,
} from "./types.js";
