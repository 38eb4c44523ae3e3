import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  isKnownToolCapable,
  isToolsUnsupportedMessage,
  ollamaToolSupportProbe,
  ToolSupportTracker,
} from "../../src/providers/tool-support.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A stand-in for Ollama's native API: answers /api/show with the given capabilities. */
async function ollama(capabilities: Record<string, string[]>): Promise<{ baseUrl: string; asked: string[] }> {
  const asked: string[] = [];
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const model = (JSON.parse(body) as { model: string }).model;
      asked.push(`${request.method} ${request.url} ${model}`);
      const known = capabilities[model];
      response.writeHead(known ? 200 : 404, { "content-type": "application/json" });
      response.end(JSON.stringify(known ? { capabilities: known } : { error: `model '${model}' not found` }));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { baseUrl: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1`, asked };
}

describe("tool support of local models", () => {
  it("knows tool-capable families whatever the naming scheme", () => {
    for (const model of [
      "llama3.1:8b",
      "llama3.2",
      "meta-llama/Llama-3.3-70B-Instruct",
      "qwen2.5-coder:7b",
      "Qwen/Qwen3-8B",
      "mistral-nemo:12b",
      "command-r",
      "hf.co/bartowski/granite3.3-8b-GGUF:Q4_K_M",
    ]) {
      expect(isKnownToolCapable(model), model).toBe(true);
    }
    for (const model of ["llama3:8b", "gemma2:2b", "phi3", "codellama"]) expect(isKnownToolCapable(model), model).toBe(false);
  });

  it("recognises the servers' 'no tools' answers", () => {
    expect(isToolsUnsupportedMessage("400 registry.ollama.ai/library/gemma2:2b does not support tools")).toBe(true);
    expect(isToolsUnsupportedMessage("tools param requires --jinja flag")).toBe(true);
    expect(isToolsUnsupportedMessage('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set')).toBe(true);
    expect(isToolsUnsupportedMessage("model not found")).toBe(false);
  });

  it("probes Ollama's /api/show once per model; known families and failures need no answer", async () => {
    const { baseUrl, asked } = await ollama({ "gemma2:2b": ["completion"], "my-tuned": ["completion", "tools"] });
    const tracker = new ToolSupportTracker(ollamaToolSupportProbe(baseUrl));
    const signal = new AbortController().signal;
    expect(await tracker.supportsTools("gemma2:2b", signal)).toBe(false);
    expect(await tracker.supportsTools("gemma2:2b", signal)).toBe(false);
    expect(await tracker.supportsTools("my-tuned", signal)).toBe(true);
    expect(await tracker.supportsTools("llama3.1", signal)).toBe(true);
    // Unknown to the server (404): assume tools, the server's 400 is the last word.
    expect(await tracker.supportsTools("other", signal)).toBe(true);
    expect(asked).toEqual(["POST /api/show gemma2:2b", "POST /api/show my-tuned", "POST /api/show other"]);
  });

  it("a server that is not Ollama (nothing listening) is 'cannot say', not an error", async () => {
    const probe = ollamaToolSupportProbe("http://127.0.0.1:9/v1");
    expect(await probe("x", new AbortController().signal)).toBeUndefined();
  });

  it("the warning is given once per model", () => {
    const tracker = new ToolSupportTracker(undefined);
    expect(tracker.takeWarning("gemma2")).toMatch(/gemma2 does not support tool calling.*text-only.*llama3\.1/s);
    expect(tracker.takeWarning("gemma2")).toBeUndefined();
  });
});
