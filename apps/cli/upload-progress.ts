import type { UploadRowResult } from '../../src/appointment-uploads/book-upload.js';

/**
 * An upload's progress on stderr: one line rewritten in place on a terminal (at most every 200 ms), else a line at
 * every tenth of the file, so a log of the run stays short.
 */
export class UploadProgress {
  private done = 0;
  private booked = 0;
  private notBooked = 0;
  private lastDrawn = 0;
  private readonly tty = process.stderr.isTTY;

  constructor(private readonly total: number) {}

  add(result: UploadRowResult): void {
    this.done++;
    if (result.status === 'rejected' || result.status === 'failed') this.notBooked++;
    else this.booked++;
    const now = Date.now();
    if (this.tty ? now - this.lastDrawn >= 200 : this.done % Math.max(1, Math.ceil(this.total / 10)) === 0) {
      this.lastDrawn = now;
      this.draw();
    }
  }

  finish(): void {
    this.draw();
    if (this.tty) process.stderr.write('\n');
  }

  private draw(): void {
    const line = `${this.done}/${this.total} rows (${Math.floor((100 * this.done) / this.total)}%): ${this.booked} on the schedule, ${this.notBooked} not booked`;
    process.stderr.write(this.tty ? `\r${line}` : `${line}\n`);
  }
}
