/**
 * `rank` and `popularity` of anime and manga records that agree with their `score` and `members`,
 * as MyAnimeList defines them: `rank` orders the approved, scored entries by score (no score → no
 * rank; unapproved entries are not ranked), `popularity` orders entries by members. Both are
 * unique. Used by the demo-data and bench-data build scripts, which check their output with
 * `checkMediaRanks` and fail when a record breaks the rule.
 *
 * Node builtins only, deterministic (no clock, no randomness).
 * @module
 */

/**
 * Gives every record a `rank` and a `popularity` that agree with its `score` and `members` within
 * the set. A record's own value (`anchor`, e.g. its real MAL rank) is kept where it fits the order;
 * records without one get a value between their neighbours'; where the anchors contradict the
 * order, the smallest increase that restores it is made. Records are changed in place.
 * @param {Array<{mal_id: number, approved: boolean, score: number|null, members: number|null, rank: number|null, popularity: number|null}>} records
 * @param {{ anchor?: (r: object, field: 'rank'|'popularity') => number|null }} [options] - The value to keep
 *   where it fits (default: none, so ranks are 1, 2, 3… in order).
 * @returns {{ rankChanged: number, popularityChanged: number }} How many anchors had to change.
 */
export function assignMediaRanks(records, options = {}) {
  const anchor = options.anchor ?? (() => null);
  const rankChanged = place(
    records.filter((r) => r.approved && r.score !== null),
    (r) => r.score,
    (r) => anchor(r, 'rank'),
    (r, v) => (r.rank = v),
  );
  for (const r of records) if (!r.approved || r.score === null) r.rank = null;
  const popularityChanged = place(
    records.filter((r) => r.members !== null),
    (r) => r.members,
    (r) => anchor(r, 'popularity'),
    (r, v) => (r.popularity = v),
  );
  for (const r of records) if (r.members === null) r.popularity = null;
  return { rankChanged, popularityChanged };
}

/** Orders `list` by `value` descending and writes strictly increasing positions near the anchors. */
function place(list, value, anchorOf, write) {
  const anchors = new Map(list.map((r) => [r, positive(anchorOf(r))]));
  const sorted = [...list].sort(
    (a, b) => value(b) - value(a) || (anchors.get(a) ?? Infinity) - (anchors.get(b) ?? Infinity) || a.mal_id - b.mal_id,
  );
  // Keep the largest set of anchors already in order (a longest increasing subsequence), so one
  // stale value does not push every later record; the rest are estimated between their neighbours.
  const kept = longestIncreasing(sorted.map((r) => anchors.get(r) ?? null));
  const est = sorted.map((r, i) => (kept.has(i) ? anchors.get(r) : null));
  for (let i = 0; i < est.length; ) {
    if (est[i] !== null) {
      i++;
      continue;
    }
    let j = i;
    while (j < est.length && est[j] === null) j++;
    const before = i === 0 ? 0 : est[i - 1];
    const after = j < est.length ? est[j] : null;
    const step = after === null || after <= before ? 1 : (after - before) / (j - i + 1);
    for (let k = i; k < j; k++) est[k] = before + Math.max(1, Math.round(step * (k - i + 1)));
    i = j;
  }
  let previous = 0;
  let changed = 0;
  sorted.forEach((r, i) => {
    const v = Math.max(est[i], previous + 1);
    if (anchors.get(r) !== undefined && anchors.get(r) !== v) changed++;
    write(r, v);
    previous = v;
  });
  return changed;
}

/** Indexes of a longest strictly increasing subsequence of the non-null values (first found). */
function longestIncreasing(values) {
  const tails = []; // tails[k]: index ending the best subsequence of length k + 1
  const prev = new Array(values.length).fill(-1);
  values.forEach((v, i) => {
    if (v === null) return;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]] < v) lo = mid + 1;
      else hi = mid;
    }
    prev[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  });
  const out = new Set();
  for (let i = tails.length ? tails[tails.length - 1] : -1; i !== -1; i = prev[i]) out.add(i);
  return out;
}

const positive = (v) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);

/**
 * The records that break the rank rule, described one per line (empty when all agree): a rank on
 * an unscored or unapproved record, a scored approved record without a rank, two records with one
 * rank or popularity, a better rank with a lower score, a better popularity with fewer members.
 * @param {Array<{mal_id: number, approved: boolean, score: number|null, members: number|null, rank: number|null, popularity: number|null}>} records
 * @returns {string[]} The problems found.
 */
export function mediaRankProblems(records) {
  const problems = [];
  for (const r of records) {
    if (r.rank !== null && r.score === null) problems.push(`${r.mal_id} has rank ${r.rank} but no score`);
    if (r.rank !== null && !r.approved) problems.push(`${r.mal_id} is unapproved but has rank ${r.rank}`);
    if (r.rank === null && r.score !== null && r.approved) problems.push(`${r.mal_id} has score ${r.score} but no rank`);
    if ((r.popularity === null) !== (r.members === null)) problems.push(`${r.mal_id} has popularity ${r.popularity} with members ${r.members}`);
  }
  const pairs = (field, value) => {
    const list = records.filter((r) => r[field] !== null).sort((a, b) => a[field] - b[field]);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1];
      const b = list[i];
      if (a[field] === b[field]) problems.push(`${a.mal_id} and ${b.mal_id} share ${field} ${a[field]}`);
      else if (a[value] < b[value]) {
        problems.push(`${a.mal_id} (${field} ${a[field]}, ${value} ${a[value]}) is ahead of ${b.mal_id} (${field} ${b[field]}, ${value} ${b[value]})`);
      }
    }
  };
  pairs('rank', 'score');
  pairs('popularity', 'members');
  return problems;
}

/**
 * Throws when any record breaks the rank rule (see `mediaRankProblems`), naming the first few.
 * @param {string} label - What the records are (for the message), e.g. "demo anime".
 * @param {Array<object>} records - Anime or manga records.
 */
export function checkMediaRanks(label, records) {
  const problems = mediaRankProblems(records);
  if (problems.length > 0) {
    throw new Error(`${label}: ${problems.length} records break the rank/score or popularity/members order:\n  ${problems.slice(0, 10).join('\n  ')}`);
  }
}
