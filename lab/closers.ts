/**
 * What a stack must undo, in the reverse order of setting it up: a part that fails to start leaves the parts already
 * running to be closed, and `close()` goes on past a closer that fails (teardown must always finish).
 */
export class Closers {
  private readonly closers: (() => Promise<unknown>)[] = [];

  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  add(closer: () => Promise<unknown>): void {
    this.closers.push(closer);
  }

  async close(): Promise<void> {
    for (const closer of this.closers.splice(0).reverse()) await closer().catch(this.onError);
  }
}
