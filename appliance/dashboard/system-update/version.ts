/**
 * Ordering of the versions in bundles (`make-bundle.sh --version`): dotted numbers with an
 * optional `-suffix`, compared as semver does: number by number (missing ones are 0), and a
 * version with a suffix (a pre-release, `1.3.0-rc.1`) before the same version without one.
 */

const VERSION = /^(\d+(?:\.\d+)*)(?:-([0-9A-Za-z.-]+))?$/;

export function isVersion(text: string): boolean {
  return VERSION.test(text);
}

/** Negative when a is older than b, 0 when equal, positive when newer; null when either is no version. */
export function compareVersions(a: string, b: string): number | null {
  const ma = VERSION.exec(a);
  const mb = VERSION.exec(b);
  if (!ma || !mb) return null;
  const na = (ma[1] ?? '').split('.').map(Number);
  const nb = (mb[1] ?? '').split('.').map(Number);
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    const diff = (na[i] ?? 0) - (nb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  const pa = ma[2];
  const pb = mb[2];
  if (pa === pb) return 0;
  if (pa === undefined) return 1;
  if (pb === undefined) return -1;
  return pa < pb ? -1 : 1;
}
