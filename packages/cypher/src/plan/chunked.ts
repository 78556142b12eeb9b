// An iterable whose items are made a chunk at a time: a generator yielding per row costs a resumption and a
// result object per row, as much as a small row itself. The iterator reuses one result object (for-of reads
// its value before the next call), and a consumer that stops early (a LIMIT) stops the filling at the chunk.

/** `fill(into)` appends the next items (at least one unless there are none) and says whether more may follow. */
export function chunked<T>(fill: (into: T[]) => boolean): Iterable<T> {
  return {
    [Symbol.iterator](): Iterator<T> {
      const chunk: T[] = [];
      let i = 0;
      let more = true;
      const result = { value: undefined as T, done: false };
      return {
        next() {
          while (i >= chunk.length) {
            if (!more) return { value: undefined, done: true };
            chunk.length = 0;
            i = 0;
            more = fill(chunk);
          }
          result.value = chunk[i++]!;
          return result;
        },
      };
    },
  };
}
