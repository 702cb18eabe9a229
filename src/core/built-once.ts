/**
 * A value built on first use and kept: the zod schemas of the families, the
 * config file, the channel types' settings and the admin API. Building them at
 * module evaluation was a large share of every start (zod 4 sets up each
 * schema node as it is made), though a family needs its schemas only at its
 * first request and a channel type its settings only at its first check; built here,
 * the schema a request meets is the same object as before, so validation
 * costs what it did (a `z.lazy` node in the tree would cost on every parse).
 */
export function builtOnce<T>(build: () => T): () => T {
  let value: T;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}
