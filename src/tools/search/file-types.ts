/**
 * File types Grep's `type` filter knows without ripgrep: a subset of `rg --type-list`, with the
 * same names, covering the languages and formats models ask for most. With ripgrep installed,
 * ripgrep's full list applies instead.
 */
export const FILE_TYPE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  c: ["c", "h"],
  cpp: ["cpp", "cc", "cxx", "hpp", "hh", "hxx", "h", "inl"],
  cs: ["cs"],
  css: ["css", "scss", "sass", "less"],
  go: ["go"],
  html: ["html", "htm", "xhtml"],
  java: ["java"],
  js: ["js", "jsx", "mjs", "cjs", "vue"],
  json: ["json", "jsonl"],
  kotlin: ["kt", "kts"],
  lua: ["lua"],
  markdown: ["md", "markdown", "mdx"],
  md: ["md", "markdown", "mdx"],
  php: ["php"],
  py: ["py", "pyi"],
  rb: ["rb", "gemspec", "rake"],
  rust: ["rs"],
  sh: ["sh", "bash", "zsh", "fish"],
  sql: ["sql"],
  swift: ["swift"],
  toml: ["toml"],
  ts: ["ts", "tsx", "mts", "cts"],
  txt: ["txt"],
  xml: ["xml", "xsd", "xsl", "svg"],
  yaml: ["yaml", "yml"],
};
