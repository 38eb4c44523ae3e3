/**
 * A push queue that is also an async iterator: producers `push` and `end`, one consumer iterates.
 * Items pushed before the consumer asks are kept in order; `end` lets the consumer drain what is
 * queued, then finishes the iteration.
 */
export class EventQueue<Item> implements AsyncIterable<Item> {
  private readonly items: Item[] = [];
  private waiting: ((result: IteratorResult<Item>) => void) | undefined;
  private ended = false;

  push(item: Item): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: item, done: false });
    } else this.items.push(item);
  }

  end(): void {
    this.ended = true;
    if (this.waiting && this.items.length === 0) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<Item>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    return { next: () => this.next() };
  }
}
