// The entry of every benchmark: run it, print its one JSON result as the last stdout line, and exit
// 0 on success or 1 with the error on stderr.
export function runBenchmark(name: string, main: () => Promise<Record<string, unknown>>): void {
  main().then(
    (result) => {
      process.stdout.write(`${JSON.stringify(result)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
