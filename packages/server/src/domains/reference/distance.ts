/**
 * Bounded optimal-string-alignment distance (Levenshtein plus adjacent transposition, so "heatrhow" is one
 * edit from "heathrow"). Returns `max + 1` as soon as the distance must exceed `max`: candidates come from a
 * trigram filter and almost all of them are rejected within the first rows, which keeps fuzzy lookups cheap.
 */

// Reused row buffers: the query path is synchronous, so one set per process is safe and avoids allocation.
let prev2 = new Int32Array(64);
let prev = new Int32Array(64);
let cur = new Int32Array(64);

export function boundedDistance(a: string, b: string, max: number): number {
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0) return lb;
  if (lb === 0) return la;
  if (lb + 2 > cur.length) {
    prev2 = new Int32Array(lb + 2);
    prev = new Int32Array(lb + 2);
    cur = new Int32Array(lb + 2);
  }
  // Only the band |i - j| <= max can hold a distance within `max`: cells outside it count as over.
  const over = max + 1;
  for (let j = 0; j <= lb; j++) prev[j] = j;
  prev[lb + 1] = over;
  for (let i = 1; i <= la; i++) {
    const lo = Math.max(i - max, 1);
    const hi = Math.min(i + max, lb);
    cur[lo - 1] = lo === 1 ? i : over;
    if (hi < lb) cur[hi + 1] = over;
    let rowMin = lo === 1 ? i : over;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      if (v > over) v = over;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return over;
    const t = prev2;
    prev2 = prev;
    prev = cur;
    cur = t;
  }
  const d = prev[lb] as number;
  return d > max ? over : d;
}
