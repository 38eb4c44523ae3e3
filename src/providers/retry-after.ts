/**
 * The delay a server asks for before a retry, from `retry-after-ms` (OpenAI, Anthropic) or
 * `retry-after` (seconds or an HTTP date), in milliseconds; undefined when it asks for none.
 */
export function retryAfterFromHeaders(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get("retry-after-ms"));
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
