// Client libraries loaded when first used instead of when the process starts. Every connector's
// library imported at start cost the idle worker about 200 MB and every `callsync` command seconds
// of start-up; loaded on first use, a process pays only for what its configuration uses (docs/deployment.md
// "Worker memory"). Types still come from `import type`, which loads nothing.

/**
 * A loader of the package `name`: the first call requires it, later calls return the same module.
 * `require`, not `import()`: the project runs as CommonJS, and `import()` of a package goes through
 * Node's ES module loader, which may load the package's ESM build beside the CommonJS one that
 * the rest of the process uses (two copies, and `instanceof` across them fails).
 */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading on first use is the point (see above)
    loaded ??= require(name) as T;
    return loaded;
  };
}
