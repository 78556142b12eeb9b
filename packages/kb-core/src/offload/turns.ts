// Turns on the caller's thread for work that must stay there (search reads the base's own index, which holds a
// native vector index that no worker thread can load): each piece of work runs in an event-loop turn of its own,
// one at a time. Forty searches asked at once then take forty turns, and between two of them the server reads its
// sockets and answers other requests, instead of running all forty back to back while every other request waits.

export class Turns {
  private tail: Promise<unknown> = Promise.resolve();

  /** Runs `work` once the work asked before it is done, starting in a turn of the event loop of its own. */
  take<T>(work: () => T | Promise<T>): Promise<T> {
    const turn = this.tail.then(
      () => new Promise<void>((r) => setImmediate(r)),
      () => new Promise<void>((r) => setImmediate(r)),
    );
    const done = turn.then(work);
    this.tail = done.catch(() => undefined);
    return done;
  }
}

/** The turns of this process's searches: one event loop, so one line. */
export const searchTurns = new Turns();
