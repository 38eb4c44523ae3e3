#!/usr/bin/env bash
# Builds a folder from which python3 imports the official Python Claude Agent SDK and everything
# it imports, from the projects' own git repositories (for machines without a Python package
# index), so that test/python-sdk/real.test.ts can run the SDK for real:
#
#   scripts/python-sdk-env.sh /tmp/pysdk/site [SOURCES]
#   AGENTWIRE_PYTHON_SDK_PATH=/tmp/pysdk/site npx vitest run test/python-sdk/real.test.ts
#
# SOURCES holds one git repository per project, bare or not, named owner+name (a `repo` folder
# inside is also accepted); a missing one is cloned from GitHub when the network allows. Where a
# package index is reachable, `pip install --target DEST claude-agent-sdk==0.2.143` does the same.
# Needs python3 >= 3.10 with pydantic 2, pydantic-settings, jsonschema, sniffio and
# typing-extensions installed (they have compiled parts; the rest below is pure Python).
set -euo pipefail

dest=${1:?usage: python-sdk-env.sh DEST [SOURCES]}
sources=${2:-/work/.mirror}
mkdir -p "$dest"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# project  tag  distribution-name  version  paths-in-the-repository (each copied to DEST)
packages=(
  "anthropics+claude-agent-sdk-python v0.2.143 claude-agent-sdk 0.2.143 src/claude_agent_sdk"
  "agronholm+anyio 4.14.2 anyio 4.14.2 src/anyio"
  "modelcontextprotocol+python-sdk v1.29.0 mcp 1.29.0 src/mcp"
  "encode+httpx 0.28.1 httpx 0.28.1 httpx"
  "encode+httpcore 1.0.9 httpcore 1.0.9 httpcore"
  "python-hyper+h11 v0.16.0 h11 0.16.0 h11"
  "encode+starlette 0.47.3 starlette 0.47.3 starlette"
  "encode+uvicorn 0.35.0 uvicorn 0.35.0 uvicorn"
  "sysid+sse-starlette v3.4.5 sse-starlette 3.4.5 sse_starlette"
  "florimondmanca+httpx-sse 0.4.3 httpx-sse 0.4.3 src/httpx_sse"
  "jpadilla+pyjwt 2.12.1 PyJWT 2.12.1 jwt"
  "Kludex+python-multipart 0.0.32 python-multipart 0.0.32 python_multipart multipart"
)

git_dir_of() {
  local project=$1
  for candidate in "$sources/$project/repo" "$sources/$project"; do
    if git --git-dir="$candidate" rev-parse --git-dir >/dev/null 2>&1; then echo "$candidate"; return; fi
    if git -C "$candidate" rev-parse --git-dir >/dev/null 2>&1; then git -C "$candidate" rev-parse --absolute-git-dir; return; fi
  done
  local url="https://github.com/${project/+//}"
  echo "cloning $url" >&2
  git clone --quiet --bare "$url" "$scratch/$project.git"
  echo "$scratch/$project.git"
}

for entry in "${packages[@]}"; do
  read -r project tag dist version paths <<<"$entry"
  git_dir=$(git_dir_of "$project")
  # shellcheck disable=SC2086 # paths is a list
  for path in $paths; do
    rm -rf "${dest:?}/$(basename "$path")"
    git --git-dir="$git_dir" archive "$tag" "$path" | tar -x -C "$scratch"
    mv "$scratch/$path" "$dest/"
  done
  # Some packages read their own version from the installed metadata (importlib.metadata).
  info="$dest/${dist//-/_}-$version.dist-info"
  mkdir -p "$info"
  printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "$dist" "$version" >"$info/METADATA"
done

PYTHONPATH=$dest python3 -c 'import claude_agent_sdk, mcp.server, anyio; print("claude_agent_sdk", claude_agent_sdk.__version__, "imports from", "'"$dest"'")'
