/**
 * A stable sort of indices by a numeric key, in typed arrays kept from call to call: the fill sweep
 * sorts each long row's crossings by x, the linker each ring's line ends by arc position, thousands
 * of times a slice. The built-in sort with a comparator it replaced needed an array made per call
 * and a call per comparison (on the Menger sponge a fifth of the fill's time). Equal keys keep
 * their order, as the built-in sort keeps them, so the results are the same.
 */

/** Runs of this many indices are sorted by insertion, in place, before the runs are merged. */
export const INSERTION_SORT_MAX = 32;

/** The merge's second array, grown when a call needs more. */
let mergeScratch = new Int32Array(256);

/** Sorts `order[0..n)`, indices into `key`, by their keys in place. */
export function sortIndicesByKey(order: Int32Array, n: number, key: Float64Array): void {
  for (let lo = 0; lo < n; lo += INSERTION_SORT_MAX) {
    const hi = Math.min(lo + INSERTION_SORT_MAX, n);
    for (let i = lo + 1; i < hi; i++) {
      const e = order[i];
      const k = key[e];
      let j = i - 1;
      while (j >= lo && key[order[j]] > k) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = e;
    }
  }
  if (n <= INSERTION_SORT_MAX) return;
  if (mergeScratch.length < n) mergeScratch = new Int32Array(Math.max(n, 2 * mergeScratch.length));
  let from: Int32Array = order;
  let to: Int32Array = mergeScratch;
  for (let width = INSERTION_SORT_MAX; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      for (let k = lo; k < hi; k++) to[k] = j >= hi || (i < mid && key[from[i]] <= key[from[j]]) ? from[i++] : from[j++];
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== order) order.set(from.subarray(0, n));
}
