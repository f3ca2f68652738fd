/**
 * Sticky, balanced assignment of a topic's partitions to the members of a consumer group (pure;
 * no Kafka, no clock). Every partition that moves costs a restore and a replay, so:
 *
 * - every member gets floor(P/N) or ceil(P/N) partitions; the ceil slots go first to the members
 *   that already own the most (they give up the least);
 * - a member keeps the partitions it owns, up to its quota (a partition two members claim, as
 *   after a missed rebalance, stays with the first in member order);
 * - only the partitions left over (their owner left, or it owned more than its quota) move, to
 *   the members below quota.
 *
 * Consequences (property-tested): from a balanced assignment, a member leaving moves exactly its
 * own partitions, and a member joining takes exactly its quota from the others.
 *
 * Members tell the group leader what they own in their subscription's user data
 * (`encodeOwnership`); the classic group protocol hands it to the leader's assignor.
 */

export interface GroupMember {
  id: string;
  /** partitions this member owns now (the previous generation's assignment) */
  owned: readonly number[];
}

/** partitions per member id; members in the order given, each list sorted */
export function assignSticky(members: readonly GroupMember[], partitions: number): Map<string, number[]> {
  const out = new Map<string, number[]>();
  const n = members.length;
  if (n === 0) return out;
  const base = Math.floor(partitions / n);
  const extra = partitions % n;
  const claimed = new Set<number>();
  const kept = members.map((m) => {
    const mine: number[] = [];
    for (const p of m.owned) {
      if (!Number.isInteger(p) || p < 0 || p >= partitions || claimed.has(p)) continue;
      claimed.add(p);
      mine.push(p);
    }
    return mine.sort((a, b) => a - b);
  });
  // the ceil slots go to the members owning the most (stable: member order breaks ties)
  const byOwned = members.map((_, i) => i).sort((a, b) => (kept[b] as number[]).length - (kept[a] as number[]).length || a - b);
  const quota = new Array<number>(n).fill(base);
  for (let k = 0; k < extra; k += 1) quota[byOwned[k] as number] = base + 1;
  const free: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const mine = kept[i] as number[];
    const q = quota[i] as number;
    if (mine.length > q) free.push(...mine.splice(q));
  }
  for (let p = 0; p < partitions; p += 1) if (!claimed.has(p)) free.push(p);
  free.sort((a, b) => a - b);
  let next = 0;
  for (let i = 0; i < n; i += 1) {
    const mine = kept[i] as number[];
    while (mine.length < (quota[i] as number) && next < free.length) mine.push(free[next++] as number);
    mine.sort((a, b) => a - b);
    out.set((members[i] as GroupMember).id, mine);
  }
  return out;
}

/** partitions that change owner between two assignments (a partition given to nobody before counts) */
export function partitionsMoved(before: ReadonlyMap<string, readonly number[]>, after: ReadonlyMap<string, readonly number[]>): number {
  const ownerBefore = new Map<number, string>();
  for (const [id, ps] of before) for (const p of ps) ownerBefore.set(p, id);
  let moved = 0;
  for (const [id, ps] of after) for (const p of ps) if (ownerBefore.get(p) !== id) moved += 1;
  return moved;
}

/** a member's subscription user data: what it owns, per topic */
export function encodeOwnership(owned: ReadonlyMap<string, readonly number[]>): string {
  return JSON.stringify({ v: 1, owned: Object.fromEntries(owned) });
}

/** the partitions of `topic` a member says it owns; none for user data it cannot read (another version's) */
export function decodeOwnership(data: Buffer | string | null | undefined, topic: string): number[] {
  if (data === null || data === undefined || data.length === 0) return [];
  try {
    const parsed = JSON.parse(typeof data === 'string' ? data : data.toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || !('owned' in parsed)) return [];
    const owned = (parsed as { owned: unknown }).owned;
    if (typeof owned !== 'object' || owned === null) return [];
    const list = (owned as Record<string, unknown>)[topic];
    return Array.isArray(list) ? list.filter((p): p is number => Number.isInteger(p)) : [];
  } catch {
    return [];
  }
}
