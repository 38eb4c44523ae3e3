/**
 * Okapi BM25 over short documents (a skill's name, description and when-to-use; a deferred
 * tool's name parts and description), built once and asked many times. Ranking is by relevance
 * to the text asked with, never by past use: a usage ranking would hide what nobody has tried yet.
 */

const K1 = 1.2;
const B = 0.75;

/** Words that carry no meaning for matching a request to a skill or a tool. */
const STOPWORDS = new Set(
  "a an and are as at be but by can do does for from has have how i if in into is it its me my of on or our please should so that the their them then there these this to use used using want was we what when where which while who will with would you your".split(
    " ",
  ),
);

/** Lowercase word stems: split on anything but letters and digits, common suffixes removed. */
export function tokenize(text: string): string[] {
  const words = text
    .toLowerCase()
    .normalize("NFKD")
    .split(/[^\p{L}\p{N}]+/u);
  const tokens: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOPWORDS.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}

/** A light suffix stripper: enough that "deploying", "deployed" and "deploys" meet "deploy". */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && (word.endsWith("ed") || word.endsWith("es"))) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

export class Bm25Index {
  /** term → [document, frequency] pairs. */
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly lengths: number[];
  private readonly averageLength: number;

  /** One entry per document: its fields, each with a weight (a name counts more than prose). */
  constructor(documents: ReadonlyArray<ReadonlyArray<{ text: string; weight: number }>>) {
    this.lengths = documents.map((fields, index) => {
      const counts = new Map<string, number>();
      let length = 0;
      for (const field of fields) {
        for (const token of tokenize(field.text)) {
          counts.set(token, (counts.get(token) ?? 0) + field.weight);
          length += field.weight;
        }
      }
      for (const [term, count] of counts) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push([index, count]);
      }
      return length;
    });
    this.averageLength = this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, this.lengths.length);
  }

  /** Documents in order of relevance to `query` (ties keep their original order); scores of 0 last. */
  rank(query: string): Array<{ index: number; score: number }> {
    const scores = new Float64Array(this.lengths.length);
    const total = this.lengths.length;
    for (const term of new Set(tokenize(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
      for (const [index, frequency] of list) {
        const norm = frequency + K1 * (1 - B + (B * this.lengths[index]!) / this.averageLength);
        scores[index]! += (idf * frequency * (K1 + 1)) / norm;
      }
    }
    const order = Array.from(scores, (score, index) => ({ index, score }));
    return order.sort((a, b) => b.score - a.score || a.index - b.index);
  }
}
