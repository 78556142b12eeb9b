// Synchronous event delivery. A listener that throws is logged and never disturbs the caller or the
// other listeners.
import type { KbEventName, KbEvents } from '../types.js';

export type Listener<E extends KbEventName> = (payload: KbEvents[E]) => void;

export class EventHub {
  private readonly listeners = new Map<KbEventName, Set<(p: never) => void>>();

  on<E extends KbEventName>(event: E, cb: Listener<E>): void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(cb as (p: never) => void);
  }

  off<E extends KbEventName>(event: E, cb: Listener<E>): void {
    this.listeners.get(event)?.delete(cb as (p: never) => void);
  }

  has(event: KbEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends KbEventName>(event: E, payload: KbEvents[E]): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const cb of [...set]) {
      try {
        (cb as Listener<E>)(payload);
      } catch (e) {
        console.error(`@evident/kb: a '${event}' listener threw; ignored:`, e);
      }
    }
  }
}
