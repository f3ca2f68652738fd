/** What a cluster replica reports about itself on the health route (cluster mode only). */
export interface ClusterStatus {
  replica: string;
  /** partitions of the telemetry topic */
  partitions: number;
  /** the partitions this replica analyses */
  owned: number[];
  /** the workloads this replica analyses, sorted */
  analysed: string[];
  /** workloads in this replica's read view (every replica's) */
  viewed_workloads: number;
  /** partitions restored from the state topic since start */
  restores: number;
  /** partitions the last assignment this replica computed as group leader moved (null: never led one) */
  last_assignment_moved: number | null;
  /** action decisions (approve, reject, rollback, result) this replica applied as the owner */
  action_commands_applied: number;
}
