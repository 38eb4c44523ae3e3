import { editDistance } from "./edit-distance.js";

/**
 * The candidate nearest to a mistyped name (`modle` → `model`, `Reed` → `Read`), or undefined
 * when none is near enough to be a plausible typo: one edit for names up to five characters, two
 * beyond. Case is ignored, so `read` finds `Read`. Shared by every place that rejects a name, so
 * the main CLI, `agentwire web` and `--tools` suggest alike.
 */
export function closestName(typed: string, candidates: Iterable<string>): string | undefined {
  if (typed.length < 3) return undefined;
  const maxDistance = typed.length <= 5 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= maxDistance && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** " Did you mean --model?" for the names that have a near candidate, "" when none has. */
export function didYouMean(
  typed: readonly string[],
  candidates: readonly string[],
  show: (name: string) => string = (name) => name,
): string {
  const suggestions = typed.flatMap((name) => {
    const suggestion = closestName(name, candidates);
    return suggestion === undefined ? [] : [show(suggestion)];
  });
  return suggestions.length > 0 ? ` Did you mean ${suggestions.join(", ")}?` : "";
}
