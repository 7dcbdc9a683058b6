/**
 * A page's state is a snapshot (its GETs) kept current by live events. An event that arrives while
 * a snapshot is on its way may be newer than the snapshot, which would then overwrite it (a plate
 * shown clear after the event that said it is occupied). So the events that arrive while a load
 * runs are applied again, in order, once its snapshot is in: the state ends at the newest of both.
 */
export class LiveReplay {
  private changes: Array<() => unknown> = [];
  private loads = 0;

  /** Applies a live event's change now, and again after every load that is running now. */
  apply<T>(change: () => T): T {
    if (this.loads > 0) this.changes.push(change);
    return change();
  }

  /** Runs `fetch`, then the assignment of the snapshot it returns, then the changes seen meanwhile. */
  async load(fetch: () => Promise<() => void>): Promise<void> {
    const seenFrom = this.changes.length;
    this.loads++;
    try {
      const assign = await fetch();
      assign();
      for (const change of this.changes.slice(seenFrom)) change();
    } finally {
      this.loads--;
      if (this.loads === 0) this.changes = [];
    }
  }
}
