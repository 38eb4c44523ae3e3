import { FetchHeaders } from "./fetch-headers.js";

/**
 * What the provider SDKs' bare `Headers`, `FormData` and `ReadableStream` mean in agentwire's
 * build (scripts/build.mjs binds them in the SDKs' files). Node defines these globals lazily,
 * and the first touch of `Headers` or `FormData` compiles undici with http2, tls, zlib,
 * worker_threads and perf_hooks behind it (~28 ms of CPU); `ReadableStream` loads the web
 * streams (~2 ms). The SDKs touch all three on every request only to build headers and to ask
 * what kind of body they were given. `Headers` is agentwire's own class; the other two answer
 * `instanceof` by the value's brand (its toStringTag), which a real instance has, without loading
 * anything, and construct the real global when asked to.
 */
export { FetchHeaders as Headers };

function lazyGlobal(name: "FormData" | "ReadableStream"): new (...args: never[]) => object {
  return class {
    constructor(...args: unknown[]) {
      const Real = globalThis[name] as unknown as new (...args: unknown[]) => object;
      // biome-ignore lint/correctness/noConstructorReturn: the stand-in builds the real class, looked up only when first used
      return new Real(...args);
    }

    static [Symbol.hasInstance](value: unknown): boolean {
      return typeof value === "object" && value !== null && Object.prototype.toString.call(value) === `[object ${name}]`;
    }
  };
}

export const FormData = lazyGlobal("FormData");
export const ReadableStream = lazyGlobal("ReadableStream");
