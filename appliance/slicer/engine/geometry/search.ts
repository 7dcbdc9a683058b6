/** Binary search over ascending arrays: where a value would go. */

/** First index in [from, to) whose value is > `value` (`to` when none). */
export function firstAbove(a: ArrayLike<number>, value: number, from = 0, to = a.length): number {
  return search(a, value, from, to, false);
}

/** First index in [from, to) whose value is >= `value` (`to` when none). */
export function firstAtOrAbove(a: ArrayLike<number>, value: number, from = 0, to = a.length): number {
  return search(a, value, from, to, true);
}

function search(a: ArrayLike<number>, value: number, from: number, to: number, orEqual: boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] > value || (orEqual && a[mid] === value)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
