/**
 * A `Headers` for the provider SDKs that does not load Node's fetch. Node defines the global
 * `Headers` lazily, and touching it compiles the whole of undici (with http2, tls, zlib,
 * worker_threads and perf_hooks behind it): ~28 ms of CPU, for a class the SDKs only use as a
 * case-insensitive map. The build (scripts/build.mjs) makes the SDKs' bare `Headers` this one;
 * node-http-fetch.ts accepts it, a real `Headers` or a plain record alike.
 */

/** Anything the SDKs hand to `new Headers(...)`: another headers object, pairs, or a record. */
export type HeadersSource =
  | { forEach(callback: (value: string, name: string) => void): void }
  | Iterable<readonly [string, string]>
  | Record<string, string | readonly string[] | undefined>
  | undefined
  | null;

export class FetchHeaders {
  // Keyed by the lower-cased name: header names are case-insensitive.
  readonly #values = new Map<string, string>();
  readonly #setCookies: string[] = [];

  constructor(source?: HeadersSource) {
    for (const [name, value] of headerPairs(source)) this.append(name, value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const normalized = String(value).trim();
    if (key === "set-cookie") this.#setCookies.push(normalized);
    const existing = this.#values.get(key);
    this.#values.set(key, existing === undefined ? normalized : `${existing}, ${normalized}`);
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === "set-cookie") this.#setCookies.splice(0, this.#setCookies.length, String(value).trim());
    this.#values.set(key, String(value).trim());
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    if (key === "set-cookie") this.#setCookies.length = 0;
    this.#values.delete(key);
  }

  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }

  getSetCookie(): string[] {
    return [...this.#setCookies];
  }

  forEach(callback: (value: string, name: string, headers: FetchHeaders) => void): void {
    for (const [name, value] of this) callback(value, name, this);
  }

  /** Sorted by name, as fetch's Headers iterates. */
  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) yield [name, this.#values.get(name)!];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** The name/value pairs of any headers source, in its own order. */
export function* headerPairs(source: HeadersSource): Generator<[string, string]> {
  if (source === undefined || source === null) return;
  if (Symbol.iterator in source) {
    for (const [name, value] of source as Iterable<readonly [string, string]>) yield [name, value];
    return;
  }
  if (typeof source.forEach === "function") {
    const pairs: [string, string][] = [];
    (source as { forEach(callback: (value: string, name: string) => void): void }).forEach((value, name) => pairs.push([name, value]));
    yield* pairs;
    return;
  }
  for (const [name, value] of Object.entries(source as Record<string, string | readonly string[] | undefined>)) {
    if (value === undefined) continue;
    if (typeof value === "string") yield [name, value];
    else for (const each of value) yield [name, each];
  }
}
