import type { ExpressionBuilder } from 'kysely';
/**
 * A list of values for `where … in (…)`, its length rounded up to a power of
 * two by repeating its last value: repeating a value changes nothing an `in`
 * list matches. SQLite keeps every prepared statement by its text, one per
 * list length (100 of them held 2.4 MB of native memory, bench/README.md);
 * padded, lists of up to 2^k values come in k + 1 lengths.
 */
export function paddedInList<T>(values: readonly T[]): T[] {
  const padded = values.slice();
  if (padded.length < 2) return padded;
  const size = 2 ** Math.ceil(Math.log2(padded.length));
  const last = padded[padded.length - 1]!;
  while (padded.length < size) padded.push(last);
  return padded;
}

/** `team_id in (…)`, a team admin's reach; no teams matches nothing (an empty `in ()` is no SQL). */
export function inTeams(teamIds: readonly string[]) {
  return (eb: ExpressionBuilder<any, any>) => (teamIds.length > 0 ? eb('team_id', 'in', paddedInList(teamIds)) : eb.lit(false));
}
