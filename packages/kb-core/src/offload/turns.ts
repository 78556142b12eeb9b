// Turns on the caller's thread for work that must stay there (search reads the base's own index, which holds a
// native vector index that no worker thread can load): work asked while other work is running or waiting starts in
// an event-loop turn of its own, one at a time. Forty searches asked at once then take forty turns, and between two
// of them the server reads its sockets and answers other requests, instead of running all forty back to back while
// every other request waits. Work asked when nothing is running starts at once, as a lone call always did.

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

export class Turns {
  private tail: Promise<unknown> = Promise.resolve();
  /** Work running or waiting. */
  private count = 0;
  /** Work ran in this turn of the event loop (cleared by the next check phase). */
  private ranThisTurn = false;

  /**
   * Runs `work` once the work asked before it is done: at once when there is none and none ran in this turn yet,
   * else in a turn of its own. Requests that arrive together are handled in one turn, one after the other: without
   * the second condition each would find the one before it finished and run at once, all in that one turn.
   */
  take<T>(work: () => T | Promise<T>): Promise<T> {
    const start = this.count === 0 && !this.ranThisTurn ? Promise.resolve() : this.tail.then(nextTurn, nextTurn);
    this.count++;
    const done = start.then(() => {
      if (!this.ranThisTurn) {
        this.ranThisTurn = true;
        setImmediate(() => {
          this.ranThisTurn = false;
        });
      }
      return work();
    });
    this.tail = done.then(
      () => {
        this.count--;
      },
      () => {
        this.count--;
      },
    );
    return done;
  }
}

/** The turns of this process's searches: one event loop, so one line. */
export const searchTurns = new Turns();
