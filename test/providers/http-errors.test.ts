import { describe, expect, it } from "vitest";
import { classifyVendorError, disconnectEvent } from "../../src/providers/http-errors.js";

/** One mapping for every provider: each vendor's real failures, as its provider extracts them. */
describe("classifyVendorError", () => {
  it.each([
    // Anthropic
    [{ status: 401, code: "authentication_error", message: "invalid x-api-key" }, "auth"],
    [{ status: 429, code: "rate_limit_error", message: "Number of requests has exceeded your rate limit." }, "rate_limit"],
    [{ status: 529, code: "overloaded_error", message: "Overloaded" }, "overloaded"],
    [{ status: null, code: "overloaded_error", message: "Overloaded" }, "overloaded"],
    [{ status: 500, code: "api_error", message: "Internal server error" }, "server"],
    [{ status: 400, code: "invalid_request_error", message: "prompt is too long: 212000 tokens > 200000 maximum" }, "context_length"],
    [{ status: 400, code: "invalid_request_error", message: "messages: roles must alternate" }, "invalid_request"],
    // OpenAI
    [{ status: 403, code: null, message: "Project does not have access" }, "auth"],
    [{ status: 429, code: "insufficient_quota", message: "You exceeded your current quota" }, "invalid_request"],
    [{ status: 400, code: "context_length_exceeded", message: "This model's maximum context length is 128000 tokens." }, "context_length"],
    [{ status: 503, code: null, message: "Service Unavailable" }, "overloaded"],
    [{ status: 502, code: null, message: "Bad gateway" }, "server"],
    [{ status: null, code: "server_error", message: "The server had an error" }, "server"],
    [{ status: null, code: "rate_limit_exceeded", message: "Rate limit reached" }, "rate_limit"],
    // Gemini
    [{ status: 400, code: "API_KEY_INVALID", message: "API key not valid. Please pass a valid API key." }, "auth"],
    [{ status: 429, code: "RESOURCE_EXHAUSTED", message: "Quota exceeded" }, "rate_limit"],
    [{ status: 503, code: "UNAVAILABLE", message: "The model is overloaded. Please try again later." }, "overloaded"],
    [
      {
        status: 400,
        code: "INVALID_ARGUMENT",
        message: "The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).",
      },
      "context_length",
    ],
    // Local servers
    [{ status: 400, code: null, message: "the request exceeds the available context size, try increasing it" }, "context_length"],
    [{ status: 400, code: null, message: "This model's maximum context length is 4096 tokens" }, "context_length"],
    [{ status: 408, code: null, message: "Request timeout" }, "server"],
    [{ status: 404, code: null, message: "model 'x' not found" }, "invalid_request"],
    // A rate limit that mentions context stays a rate limit: waiting helps.
    [{ status: 429, code: null, message: "too many tokens per minute" }, "rate_limit"],
    [{ status: null, code: null, message: "something odd" }, "unknown"],
  ] as const)("%j → %s", (error, kind) => expect(classifyVendorError(error)).toBe(kind));
});

describe("disconnectEvent: what the SDKs call 'Connection error.'", () => {
  // The shape undici and the SDKs produce: wrapper → TypeError "fetch failed" → system error.
  const wrapped = (cause: Error): Error => new Error("Connection error.", { cause: new TypeError("fetch failed", { cause }) });
  const systemError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

  it("a host name that does not exist fails at once, anywhere", () => {
    const event = disconnectEvent(
      wrapped(systemError("ENOTFOUND", "getaddrinfo ENOTFOUND api.example.invalid")),
      "https://api.example.invalid/v1/messages",
    );
    expect(event).toMatchObject({
      kind: "disconnect",
      retryable: false,
      message:
        "Cannot connect to https://api.example.invalid/v1/messages: the host name api.example.invalid was not found (ENOTFOUND). Check the base URL.",
    });
  });

  it("a refusal is final on this machine, but retried from a remote host", () => {
    expect(
      disconnectEvent(wrapped(systemError("ECONNREFUSED", "connect ECONNREFUSED")), "http://localhost:8080/v1/chat/completions"),
    ).toMatchObject({ retryable: false });
    const remote = disconnectEvent(
      wrapped(systemError("ECONNREFUSED", "connect ECONNREFUSED 203.0.113.7:443")),
      "https://api.example.com/v1/messages",
    );
    expect(remote).toMatchObject({ retryable: true, message: "Connection error. (ECONNREFUSED; https://api.example.com/v1/messages)" });
  });

  it("a reset mid-stream is retried, and says what happened", () => {
    expect(disconnectEvent(wrapped(systemError("ECONNRESET", "read ECONNRESET")), "http://127.0.0.1:8080/v1/messages")).toMatchObject({
      retryable: true,
      message: expect.stringContaining("ECONNRESET"),
    });
    expect(disconnectEvent(new TypeError("terminated"), "http://127.0.0.1:8080/v1/messages")).toMatchObject({
      retryable: true,
      message: "terminated",
    });
  });
});
