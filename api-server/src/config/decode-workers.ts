/**
 * How many worker threads decode remote-write bodies (SVC_INGEST_DECODE_WORKERS). `auto`, the
 * default, is one worker when the process may use two cores or more, else none: with one worker
 * the event loop keeps HTTP, the drain and the tick while snappy and protobuf run beside it on the
 * other core (the measurements that chose this: docs/ingest-performance.md); with one core the
 * hand-over only adds work. Node's
 * availableParallelism() counts the container's CPU limit (libuv reads the cgroup quota since 1.49),
 * so a pod limited to one CPU decodes on its event loop.
 */
export const MAX_DECODE_WORKERS = 16;

export type DecodeWorkersSetting = 'auto' | number;

/** the number of decode workers to start for `setting` on a process that may use `parallelism` cores */
export function decodeWorkerCount(setting: DecodeWorkersSetting, parallelism: number): number {
  if (setting !== 'auto') return setting;
  return parallelism >= 2 ? 1 : 0;
}
