/**
 * Why an action of a type other than scale cannot be rolled back (docs/diagnosis.md): a scale has
 * a previous replica count to restore; a rolling restart has replaced its pods and nothing brings
 * the old ones back (restarting again is a new restart, not an undo); an alert changed nothing.
 */
export function rollbackRefusal(type: string): string {
  if (type === 'restart') return 'a restart cannot be rolled back: the rolling restart replaced the pods and there is no previous state to restore';
  return `an action of type ${type} cannot be rolled back: it changed nothing in the cluster to restore`;
}
