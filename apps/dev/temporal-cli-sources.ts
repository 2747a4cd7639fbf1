/** What a source of the Temporal CLI is asked for (see `findTemporalCli`). */
export interface CliFetchRequest {
  /** The CLI release wanted, e.g. "1.9.1" (`deploy/temporal/versions.json`). */
  version: string;
  /** Where to put the binary: a temporary file beside the cached one, renamed into place once its version is right. */
  target: string;
  /** A fresh scratch folder, removed afterwards. */
  workDir: string;
  /** The `PATH` searched for helper programs (pip, go). */
  searchPath: string | undefined;
}

/** One way of obtaining the CLI; `fetch` throws an error whose first line says why it could not. */
export interface CliSource {
  /** Named in the list of attempts. */
  name: string;
  /** One line shown before a slow source starts (the quick ones are covered by the finder's own line). */
  notice?: (request: CliFetchRequest) => string;
  fetch(request: CliFetchRequest): Promise<void>;
}
