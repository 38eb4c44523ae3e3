/**
 * A schema built the first time it is asked for, then kept. Every start builds each tool and reads
 * its name and description, but a tool's input schema is needed only when the model calls it (the
 * offer's JSON Schemas come from the build): built at load, the tools' schemas were ~340 zod
 * objects, ~6 ms of a single answer's CPU (95 -> 89 ms), for a run that may call no tool at all.
 */
export function lazySchema<Schema>(build: () => Schema): () => Schema {
  let schema: Schema | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}
