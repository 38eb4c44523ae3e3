declare const __AGENTWIRE_VERSION__: string | undefined;

/** Injected by the build (scripts/build.mjs) from package.json; "dev" when running from source. */
export const AGENTWIRE_VERSION: string = typeof __AGENTWIRE_VERSION__ === "string" ? __AGENTWIRE_VERSION__ : "0.0.0-dev";
