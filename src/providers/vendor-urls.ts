/** Each vendor's public API base URL, where no `--base-url` or `*_BASE_URL` says otherwise. */
export const VENDOR_BASE_URLS = {
  anthropic: "https://api.anthropic.com",
  gemini: "https://generativelanguage.googleapis.com",
  openai: "https://api.openai.com/v1",
} as const;
