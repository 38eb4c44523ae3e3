/**
 * How the reminder naming the deferred tools begins. Every request adds it to its first user
 * message (src/agent/tool-offer.ts; test/e2e/tool-search.test.ts checks where it goes), so tests
 * about something else leave it out of the texts they compare.
 */
export const DEFERRED_LISTING_START = "<system-reminder>\nThe tools below are deferred";

/** Whether a text block of a request is that reminder. */
export function isDeferredListing(text: string): boolean {
  return text.startsWith(DEFERRED_LISTING_START);
}
