/**
 * A typed, in-process publish/subscribe bus: the one source of live state. In the dashboard
 * (`dashboard/events.ts` lists the events) the printer manager publishes `printer.status`,
 * `print.progress` and `ams.update` from its drivers, and the notification center publishes
 * `notification`; the live feature's WebSocket hub subscribes to every event. A subscriber that
 * throws is logged and skipped, so one broken listener never silences the others or the publisher.
 */
import type { Logger } from './logger.js';

export type Listener<T> = (payload: T) => void;
export type AnyListener<E> = <K extends keyof E & string>(type: K, payload: E[K]) => void;

export class EventBus<E extends object> {
  private readonly listeners = new Map<keyof E, Set<Listener<never>>>();
  private readonly anyListeners = new Set<AnyListener<E>>();

  constructor(private readonly log: Logger) {}

  /** Subscribes to one event type; returns the unsubscribe function. */
  on<K extends keyof E & string>(type: K, listener: Listener<E[K]>): () => void {
    let set = this.listeners.get(type);
    if (!set) {
      set = new Set();
      this.listeners.set(type, set);
    }
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  /** Subscribes to every event (the WebSocket hub, Node-RED). */
  onAny(listener: AnyListener<E>): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  emit<K extends keyof E & string>(type: K, payload: E[K]): void {
    const set = this.listeners.get(type);
    if (set) {
      for (const listener of [...set]) this.deliver(type, () => (listener as Listener<E[K]>)(payload));
    }
    for (const listener of [...this.anyListeners]) this.deliver(type, () => listener(type, payload));
  }

  listenerCount(type: keyof E & string): number {
    return this.listeners.get(type)?.size ?? 0;
  }

  private deliver(type: string, call: () => void): void {
    try {
      call();
    } catch (err) {
      this.log.error(`listener of ${type} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
  }
}
