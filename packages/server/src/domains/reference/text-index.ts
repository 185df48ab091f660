/**
 * A small in-memory search index shared by airports and airlines. Built once at start (tens of ms); a query
 * touches only the posting lists of the tokens it matches, so it answers in microseconds on the full data.
 *
 * Matching tiers, best first (the tier decides `match_type`; the score orders within and across tiers):
 * - `iata` / `icao`: the whole query equals a code (score 1 / 0.97), or the IATA metropolitan code of the
 *   city an airport serves (`iata`, 0.99: NYC finds JFK and LGA).
 * - `prefix` by code: a two-character query is the start of a three-letter IATA code (DX: DXB),
 *   0.85..0.95 by the document's `weight` (importance), so LH puts LHR first.
 * - `prefix`: every query token matches a document token exactly or as a prefix, and the whole normalised
 *   query is a prefix of a field (name, city, alias): 0.80..0.95, higher when the query covers more of it.
 * - `token`: every query token matches a token (exactly or as a prefix) somewhere: 0.55..0.75.
 * - `fuzzy`: as `token`, but at least one query token only matched within a bounded edit distance: 0.20..0.50.
 *
 * Typo tolerance: a query token of 4+ characters that is not itself a known token is looked up through a
 * trigram index over the vocabulary (a candidate must share enough trigrams to be within the edit bound),
 * then verified with a bounded edit distance: at most 1 edit below 8 characters, 2 from 8. Tokens that are
 * real words in the data are not treated as typos; that keeps "paris" from also returning "parks".
 */

import { normalize } from '../../internal/places/normalize.ts';
import { boundedDistance } from './distance.ts';

export type MatchType = 'iata' | 'icao' | 'prefix' | 'token' | 'fuzzy';

export interface IndexedDoc {
  /** Free-text fields (name first, then city or alias); missing ones are simply left out. */
  fields: string[];
  iata: string | null;
  icao: string | null;
  /** The IATA metropolitan code of the city the document serves (NYC for JFK and LGA). */
  cityCode?: string | null;
  /** 0..1: orders documents found by the first two letters of their IATA code (airport importance). */
  weight?: number;
}

export interface Hits {
  /** Matching documents, unsorted. */
  docs: number[];
  /** By document: similarity 0..1, rounded to 4 decimals. */
  score: Float64Array;
  /** By document: index into MATCH_TYPES. */
  type: Uint8Array;
}

const TYPE_IATA = 1;
const TYPE_ICAO = 2;
const TYPE_PREFIX = 3;
const TYPE_TOKEN = 4;
const TYPE_FUZZY = 5;
const TYPE_REJECTED = 6;
export const MATCH_TYPES: readonly MatchType[] = ['fuzzy', 'iata', 'icao', 'prefix', 'token', 'fuzzy'];
/** Ranking groups for distance sorting: codes, then name/city matches, then typo matches. */
export const TYPE_GROUP: readonly number[] = [2, 0, 0, 1, 1, 2];

interface VocabMatch {
  id: number;
  sim: number;
  fuzzy: boolean;
}

const MIN_FUZZY_LEN = 4;

function trigrams(token: string): string[] {
  const padded = `^${token}$`;
  const out: string[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) out.push(padded.slice(i, i + 3));
  return out;
}

const round4 = (n: number): number => Math.round(n * 10000) / 10000;

export class TextIndex {
  readonly size: number;
  private readonly fieldNorms: string[][];
  private readonly codeIata = new Map<string, number[]>();
  private readonly codeIcao = new Map<string, number[]>();
  private readonly codeCity = new Map<string, number[]>();
  /** Two-character prefixes of three-letter IATA codes, with the score each document gets for one. */
  private readonly codePrefix = new Map<string, number[]>();
  private readonly weight: Float64Array;
  private readonly vocabId = new Map<string, number>();
  private readonly vocab: string[] = [];
  private readonly postings: Int32Array[] = [];
  /** Vocabulary sorted lexicographically, for prefix ranges by binary search. */
  private readonly sorted: string[];
  private readonly sortedIds: Int32Array;
  private readonly grams = new Map<string, Int32Array>();
  private readonly anagrams = new Map<string, number[]>();
  /** By vocabulary id: which letters the token holds (`letterMask`), a cheap filter before the distance. */
  private readonly masks: Int32Array;
  /** Every normalised field, sorted, with its document: the fields starting with a query form one range. */
  private readonly fieldsSorted: string[];
  private readonly fieldsDoc: Int32Array;
  private readonly cover: Float64Array;
  // Per-query scratch, reused: the query path is synchronous so nothing interleaves.
  private readonly gramCounts: Uint16Array;
  private readonly matched: Int32Array;
  private readonly stamp: Int32Array;
  private readonly best: Float64Array;
  private readonly bestFuzzy: Uint8Array;
  private readonly simSum: Float64Array;
  private readonly anyFuzzy: Uint8Array;
  private readonly score: Float64Array;
  private readonly type: Uint8Array;
  private lastDocs: number[] = [];
  private rejected: number[] = [];

  constructor(docs: readonly IndexedDoc[]) {
    this.size = docs.length;
    this.fieldNorms = docs.map((d) => d.fields.map(normalize).filter((f) => f !== ''));
    this.weight = Float64Array.from(docs, (d) => Math.min(1, Math.max(0, d.weight ?? 0)));
    const lists: number[][] = [];
    docs.forEach((d, i) => {
      if (d.iata) push(this.codeIata, d.iata.toUpperCase(), i);
      if (d.icao) push(this.codeIcao, d.icao.toUpperCase(), i);
      if (d.cityCode) push(this.codeCity, d.cityCode.toUpperCase(), i);
      if (d.iata?.length === 3) push(this.codePrefix, d.iata.slice(0, 2).toUpperCase(), i);
      const seen = new Set<string>();
      for (const f of this.fieldNorms[i] ?? []) {
        for (const t of f.split(' ')) {
          if (seen.has(t)) continue;
          seen.add(t);
          let id = this.vocabId.get(t);
          if (id === undefined) {
            id = this.vocab.length;
            this.vocabId.set(t, id);
            this.vocab.push(t);
            lists.push([]);
          }
          lists[id]?.push(i);
        }
      }
    });
    for (const l of lists) this.postings.push(Int32Array.from(l));
    const order = this.vocab.map((_, i) => i).sort((a, b) => cmp(this.vocab[a] ?? '', this.vocab[b] ?? ''));
    this.sortedIds = Int32Array.from(order);
    this.sorted = order.map((i) => this.vocab[i] ?? '');
    const gramLists = new Map<string, number[]>();
    this.vocab.forEach((t, id) => {
      if (t.length < MIN_FUZZY_LEN - 1) return;
      for (const g of new Set(trigrams(t))) push(gramLists, g, id);
    });
    for (const [g, l] of gramLists) this.grams.set(g, Int32Array.from(l));
    // Same letters, other order: a short token with two letters swapped ("yrok") may share no trigram
    // with the word it means ("york"), so the trigram filter alone never offers it.
    this.vocab.forEach((t, id) => {
      if (t.length >= MIN_FUZZY_LEN) push(this.anagrams, letters(t), id);
    });
    this.masks = Int32Array.from(this.vocab, letterMask);
    const pairs: [string, number][] = [];
    this.fieldNorms.forEach((fs, d) => {
      for (const f of fs) pairs.push([f, d]);
    });
    pairs.sort((a, b) => cmp(a[0], b[0]));
    this.fieldsSorted = pairs.map((p) => p[0]);
    this.fieldsDoc = Int32Array.from(pairs, (p) => p[1]);
    this.cover = new Float64Array(docs.length);
    this.gramCounts = new Uint16Array(this.vocab.length);
    this.matched = new Int32Array(docs.length);
    this.stamp = new Int32Array(docs.length).fill(-1);
    this.best = new Float64Array(docs.length);
    this.bestFuzzy = new Uint8Array(docs.length);
    this.simSum = new Float64Array(docs.length);
    this.anyFuzzy = new Uint8Array(docs.length);
    this.score = new Float64Array(docs.length);
    this.type = new Uint8Array(docs.length);
  }

  /**
   * Every document matching `query` and accepted by `accept`, unsorted. `score` and `type` are indexed by
   * document and only valid until the next call: a broad query ("airport") matches thousands of rows, and
   * not allocating an object per match is what keeps it well under a millisecond.
   */
  search(query: string, accept: (doc: number) => boolean): Hits {
    const { score, type } = this;
    for (const d of this.lastDocs) {
      score[d] = 0;
      type[d] = 0;
    }
    for (const d of this.rejected) type[d] = 0;
    this.rejected = [];
    const docs: number[] = [];
    this.lastDocs = docs;
    const code = query.replace(/\s+/g, '').toUpperCase();
    if (/^[A-Z0-9]{2,4}$/.test(code)) {
      for (const d of this.codeIata.get(code) ?? []) this.add(docs, d, TYPE_IATA, 1, accept);
      for (const d of this.codeCity.get(code) ?? []) this.add(docs, d, TYPE_IATA, 0.99, accept);
      for (const d of this.codeIcao.get(code) ?? []) this.add(docs, d, TYPE_ICAO, 0.97, accept);
    }
    if (/^[A-Z0-9]{2}$/.test(code))
      for (const d of this.codePrefix.get(code) ?? [])
        this.add(docs, d, TYPE_PREFIX, round4(0.85 + 0.1 * (this.weight[d] as number)), accept);
    const qn = normalize(query);
    if (qn === '') return { docs, score, type };
    const tokens = qn.split(' ');
    const survivors = this.matchTokens(tokens);
    const prefixDocs = this.markPrefixFields(qn);
    const { cover, simSum, anyFuzzy } = this;
    for (const d of survivors) {
      const avg = (simSum[d] as number) / tokens.length;
      const c = cover[d] as number;
      if (anyFuzzy[d] === 1) this.add(docs, d, TYPE_FUZZY, round4(0.2 + 0.3 * avg), accept);
      else if (c > 0) this.add(docs, d, TYPE_PREFIX, round4(0.8 + 0.15 * c), accept);
      else this.add(docs, d, TYPE_TOKEN, round4(0.55 + 0.2 * avg), accept);
    }
    for (const d of prefixDocs) cover[d] = 0;
    return { docs, score, type };
  }

  /** Records a match unless the document already has one (earlier tiers are better) or is filtered out. */
  private add(docs: number[], d: number, t: number, s: number, accept: (doc: number) => boolean): void {
    if (this.type[d] !== 0) return;
    // Filtered-out documents are marked too, so later tiers skip them without calling `accept` again.
    this.type[d] = accept(d) ? t : TYPE_REJECTED;
    if (this.type[d] === TYPE_REJECTED) {
      this.rejected.push(d);
      return;
    }
    this.score[d] = s;
    docs.push(d);
  }

  /** Sets `cover[d]` (query length / field length) for every document with a field starting with `qn`. */
  private markPrefixFields(qn: string): number[] {
    const i0 = lowerBound(this.fieldsSorted, qn);
    const docs: number[] = [];
    for (let i = i0; i < this.fieldsSorted.length; i++) {
      const f = this.fieldsSorted[i] as string;
      if (!f.startsWith(qn)) break;
      const d = this.fieldsDoc[i] as number;
      const c = qn.length / f.length;
      if (c > (this.cover[d] as number)) this.cover[d] = c;
      docs.push(d);
    }
    return docs;
  }

  /** Documents in which every query token matches (exactly, as a prefix or fuzzily). */
  private matchTokens(tokens: string[]): number[] {
    const { matched, stamp, best, bestFuzzy, simSum, anyFuzzy } = this;
    let survivors: number[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const touched: number[] = [];
      for (const vm of this.vocabMatches(tokens[i] as string)) {
        const list = this.postings[vm.id] as Int32Array;
        for (let k = 0; k < list.length; k++) {
          const d = list[k] as number;
          // Token i may only extend documents that matched tokens 0..i-1 of this query.
          if (matched[d] !== i) continue;
          if (stamp[d] === i) {
            // Several vocabulary entries match this token in one document: keep the best.
            if (vm.sim > (best[d] as number)) {
              best[d] = vm.sim;
              bestFuzzy[d] = vm.fuzzy ? 1 : 0;
            }
            continue;
          }
          stamp[d] = i;
          best[d] = vm.sim;
          bestFuzzy[d] = vm.fuzzy ? 1 : 0;
          touched.push(d);
        }
      }
      for (const d of touched) {
        const prevSum = i === 0 ? 0 : (simSum[d] as number);
        const prevFuzzy = i === 0 ? 0 : (anyFuzzy[d] as number);
        matched[d] = i + 1;
        simSum[d] = prevSum + (best[d] as number);
        anyFuzzy[d] = prevFuzzy | (bestFuzzy[d] as number);
      }
      survivors = touched;
      if (touched.length === 0) break;
    }
    const n = tokens.length;
    const out = survivors.filter((d) => matched[d] === n);
    // Reset the scratch arrays for the next query (a fill over a few thousand ints costs ~1 µs).
    matched.fill(0);
    stamp.fill(-1);
    return out;
  }

  private vocabMatches(token: string): VocabMatch[] {
    const out: VocabMatch[] = [];
    // Prefix range: lower bound of `token`, then every entry starting with it.
    for (let i = lowerBound(this.sorted, token); i < this.sorted.length; i++) {
      const t = this.sorted[i] as string;
      if (!t.startsWith(token)) break;
      out.push({ id: this.sortedIds[i] as number, sim: token.length / t.length, fuzzy: false });
    }
    if (token.length >= MIN_FUZZY_LEN && !this.vocabId.has(token)) this.fuzzyMatches(token, out);
    return out;
  }

  private fuzzyMatches(token: string, out: VocabMatch[]): void {
    const max = token.length >= 8 ? 2 : 1;
    const qgrams = [...new Set(trigrams(token))];
    // q-gram lemma: one edit destroys at most 3 trigrams, an adjacent transposition (one edit in the
    // distance above) up to 4: "yrok" shares no trigram with "york", so it must not need one.
    const need = Math.max(1, qgrams.length - 4 * max);
    const counts = this.gramCounts;
    const touched: number[] = [];
    for (const g of qgrams) {
      const list = this.grams.get(g);
      if (!list) continue;
      for (let k = 0; k < list.length; k++) {
        const id = list[k] as number;
        if (counts[id] === 0) touched.push(id);
        counts[id] = (counts[id] as number) + 1;
      }
    }
    const already = new Set(out.map((m) => m.id));
    for (const id of this.anagrams.get(letters(token)) ?? []) {
      if (counts[id] === 0 && !already.has(id)) {
        counts[id] = need;
        touched.push(id);
      }
    }
    const len = token.length;
    const qmask = letterMask(token);
    for (const id of touched) {
      const c = counts[id] as number;
      counts[id] = 0;
      if (c < need || already.has(id)) continue;
      const t = this.vocab[id] as string;
      // An edit changes the length by at most one: a longer or shorter word is out of reach.
      if (t.length > len + max || t.length < len - max) continue;
      // Each edit removes at most one letter the other word lacks, and adds at most one.
      const m = this.masks[id] as number;
      if (popcount(qmask & ~m) > max || popcount(m & ~qmask) > max) continue;
      const d = boundedDistance(token, t, max);
      if (d <= max) out.push({ id, sim: 1 - d / Math.max(token.length, t.length), fuzzy: true });
    }
  }
}

/**
 * The letters a token holds as bits (a-z one each, any other character into one of six shared bits). A
 * bit set in one mask and not the other stands for a character the other word lacks, so the count of such
 * bits is a lower bound on the edits between the two.
 */
function letterMask(t: string): number {
  let m = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    m |= 1 << (c >= 97 && c <= 122 ? c - 97 : 26 + (c % 6));
  }
  return m;
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A token's letters in order: the key under which its anagrams are filed. */
function letters(t: string): string {
  return [...t].sort().join('');
}

function push<K>(m: Map<K, number[]>, k: K, v: number): void {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
