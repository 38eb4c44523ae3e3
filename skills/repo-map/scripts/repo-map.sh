#!/bin/sh
# A compact map of a repository for an agent or a newcomer. POSIX sh and coreutils only.
# Usage: repo-map.sh [directory]
# Runs without a question when its skill is loaded, inside repositories nobody has vetted: it only
# reads, and git is told to ignore what a repository's own config could make it run (an fsmonitor
# hook, a signature-checking program, a pager).
set -eu
root=${1:-.}
cd "$root"

list_files() {
  find . \( -name .git -o -name node_modules -o -name dist -o -name build -o -name target -o -name .venv -o -name vendor -o -name __pycache__ \) -prune -o -type f -print
}

files=$(list_files)
sizes=$(printf '%s\n' "$files" | while IFS= read -r file; do [ -n "$file" ] && printf '%s %s\n' "$(wc -c < "$file" | tr -d ' ')" "$file"; done)
count=$(printf '%s\n' "$files" | grep -c . || true)
echo "# $(pwd)"
echo
echo "files: $count, bytes: $(printf '%s\n' "$sizes" | awk '{ total += $1 } END { print total + 0 }')"
echo
echo "## extensions (files)"
printf '%s\n' "$files" | sed -n 's/.*\.\([A-Za-z0-9]*\)$/\1/p' | sort | uniq -c | sort -rn | head -10
echo
echo "## top level"
ls -1Ap | grep -v -x -e '.git/' -e 'node_modules/' | head -40
echo
echo "## largest files"
printf '%s\n' "$sizes" | sort -rn | head -10
echo
echo "## entry points and manifests"
for name in README.md README package.json pyproject.toml setup.py Cargo.toml go.mod pom.xml build.gradle Makefile Dockerfile docker-compose.yml main.py index.js index.ts src/main.rs src/index.ts cmd; do
  [ -e "$name" ] && echo "$name"
done
safe_git() {
  GIT_PAGER=cat GIT_OPTIONAL_LOCKS=0 git -c core.fsmonitor=false -c core.hooksPath=/dev/null -c log.showSignature=false -c gpg.program=false "$@"
}
if safe_git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo
  echo "## recent commits"
  safe_git log --no-show-signature --no-ext-diff --no-textconv --oneline -5 2>/dev/null || true
fi
