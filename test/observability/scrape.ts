/** The value of one sample (`name{labels}` exactly as exposed) in a Prometheus text scrape; 0 when absent. */
export function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
