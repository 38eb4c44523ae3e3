/**
 * Whether a model behind a local / OpenAI-compatible server can take tools. Known tool-capable
 * families skip every check; other models are probed once (Ollama reports capabilities on
 * `/api/show`), and a server's "does not support tools" answer settles it for the session.
 */

import { nodeHttpFetch } from "./node-http-fetch.js";

/**
 * Families whose chat templates and server-side parsers handle tool calls (Ollama's "tools"
 * models; vLLM / llama.cpp parsers). Matched against the model name with separators removed, so
 * `llama3.1:8b`, `meta-llama/Llama-3.1-8B-Instruct` and `qwen2.5-coder:7b` all match.
 */
const TOOL_CAPABLE_FAMILIES = [
  "llama3.1",
  "llama3.2",
  "llama3.3",
  "llama4",
  "qwen2",
  "qwen2.5",
  "qwen3",
  "qwq",
  "mistral-nemo",
  "mistral-large",
  "mistral-small",
  "ministral",
  "devstral",
  "mixtral",
  "command-r",
  "command-a",
  "granite3",
  "granite4",
  "hermes3",
  "nemotron",
  "firefunction",
  "smollm2",
  "gpt-oss",
  "phi4-mini",
  "cogito",
];

/** Named in the warning, so the user knows what to pull instead. */
const TOOL_CAPABLE_EXAMPLES = "llama3.1, llama3.2, qwen2.5, qwen2.5-coder, qwen3, mistral-nemo, command-r, granite3.3";

function squash(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** True when the model belongs to a family known to call tools. */
export function isKnownToolCapable(model: string): boolean {
  // Registry paths (`hf.co/org/`, `registry.ollama.ai/library/`) and `:tag`s carry no family.
  const base = squash((model.split("/").at(-1) ?? model).split(":")[0] ?? model);
  return TOOL_CAPABLE_FAMILIES.some((family) => base.includes(squash(family)));
}

/**
 * A server's way of saying the model cannot take the `tools` parameter: Ollama ("… does not
 * support tools"), llama.cpp without `--jinja`, vLLM without `--enable-auto-tool-choice`.
 */
export function isToolsUnsupportedMessage(message: string): boolean {
  return /does not support tools|tools? (are|is) not supported|tools param requires --jinja|--enable-auto-tool-choice|tool[_ ]choice.*not supported/i.test(
    message,
  );
}

export function toolsUnsupportedWarning(model: string): string {
  return (
    `Model ${model} does not support tool calling on this server, so this session runs text-only: ` +
    `the agent cannot read, write or run anything. Tool-capable models include ${TOOL_CAPABLE_EXAMPLES}.`
  );
}

/** Asks a server whether `model` takes tools: true / false, or undefined when it cannot say. */
export type ToolSupportProbe = (model: string, signal: AbortSignal) => Promise<boolean | undefined>;

const PROBE_TIMEOUT_MS = 3_000;

/**
 * Ollama's `/api/show` lists a model's capabilities (since 0.6.4). `baseUrl` is the OpenAI
 * endpoint (`…/v1`); the native API lives at the same origin.
 *
 * Contract: never throws; any failure (old server, other server, timeout) is `undefined`.
 */
export function ollamaToolSupportProbe(baseUrl: string): ToolSupportProbe {
  const showUrl = `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/api/show`;
  return async (model, signal) => {
    try {
      const response = await nodeHttpFetch(showUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        // `name` is what servers before 0.5 read.
        body: JSON.stringify({ model, name: model }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(PROBE_TIMEOUT_MS)]),
      });
      if (!response.ok) return undefined;
      const body = (await response.json()) as { capabilities?: unknown };
      return Array.isArray(body.capabilities) ? body.capabilities.includes("tools") : undefined;
    } catch {
      return undefined;
    }
  };
}

/**
 * What one session has learnt about its models' tool support. Unknown models are assumed
 * capable until a probe or the server says otherwise.
 */
export class ToolSupportTracker {
  private readonly known = new Map<string, boolean>();
  private readonly warned = new Set<string>();

  constructor(private readonly probe: ToolSupportProbe | undefined) {}

  async supportsTools(model: string, signal: AbortSignal): Promise<boolean> {
    const known = this.known.get(model);
    if (known !== undefined) return known;
    const supported = isKnownToolCapable(model) ? true : ((await this.probe?.(model, signal)) ?? true);
    // An aborted probe proves nothing; ask again next time.
    if (!signal.aborted) this.known.set(model, supported);
    return supported;
  }

  markUnsupported(model: string): void {
    this.known.set(model, false);
  }

  /** The warning text the first time it is asked for a model, then undefined. */
  takeWarning(model: string): string | undefined {
    if (this.warned.has(model)) return undefined;
    this.warned.add(model);
    return toolsUnsupportedWarning(model);
  }
}
