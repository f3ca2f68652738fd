/**
 * The consumer-group settings that make partition ownership sticky under the classic group
 * protocol of @platformatic/kafka (which assigns round-robin by default: a member leaving
 * reshuffled 8 of 12 partitions). Each member sends what it owns in its JoinGroup subscription;
 * the leader runs `assignSticky` over them. The `roundrobin` protocol stays listed second so a
 * group with a replica of an older version still forms (the leader's assigner reads no
 * ownership from such members and hands out a fresh balanced assignment).
 */
import type { GroupAssignment, GroupPartitionsAssigner, GroupPartitionsAssignments, GroupProtocolSubscription } from '../kafka/kafka-client.js';
import { assignSticky, decodeOwnership, encodeOwnership, partitionsMoved } from './sticky-assignment.js';

export const STICKY_PROTOCOL = 'faultline-sticky';

/**
 * The member's protocols: the subscription user data is read at every JoinGroup, so it carries
 * the ownership of that moment; `joining` runs then too (a rebalance starts: flush state now).
 */
export function stickyProtocols(owned: () => ReadonlyMap<string, readonly number[]>, joining: () => void): GroupProtocolSubscription[] {
  const sticky = {
    name: STICKY_PROTOCOL,
    version: 1,
    get metadata(): string {
      joining();
      return encodeOwnership(owned());
    },
  };
  return [sticky, { name: 'roundrobin', version: 1 }];
}

/** the leader's assigner; `assigned` hears how many partitions changed owner in this generation */
export function stickyAssigner(assigned: (summary: { members: number; moved: number }) => void): GroupPartitionsAssigner {
  return (_current, members, topics, metadata): GroupPartitionsAssignments[] => {
    const ids = [...members.keys()].sort();
    const result = new Map<string, Map<string, GroupAssignment>>(ids.map((id) => [id, new Map()]));
    let moved = 0;
    for (const topic of topics) {
      const count = metadata.topics.get(topic)?.partitionsCount ?? 0;
      const group = ids.map((id) => ({ id, owned: decodeOwnership(members.get(id)?.metadata, topic) }));
      const next = assignSticky(group, count);
      moved += partitionsMoved(new Map(group.map((m) => [m.id, m.owned])), next);
      for (const [id, partitions] of next) result.get(id)?.set(topic, { topic, partitions });
    }
    assigned({ members: ids.length, moved });
    return ids.map((memberId) => ({ memberId, assignments: result.get(memberId) ?? new Map() }));
  };
}
