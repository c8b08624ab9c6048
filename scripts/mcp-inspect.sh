#!/usr/bin/env bash
# Runs the MCP Inspector's CLI mode (npm @modelcontextprotocol/inspector) against plumb's MCP tools.
#   scripts/mcp-inspect.sh                         tools/list on a running plumb at http://127.0.0.1:7077/mcp
#   scripts/mcp-inspect.sh URL [INSPECTOR ARGS]    another address; e.g. --method tools/call --tool-name
#                                                  search_symbols --tool-arg query=Config
#   scripts/mcp-inspect.sh --stdio ROOT [ARGS]     the Inspector starts 'plumb mcp ROOT' itself (stdio)
# The Inspector's CLI sends no Authorization header: use it on a plumb without a token.
set -euo pipefail
cd "$(dirname "$0")/.."

inspector=node_modules/@modelcontextprotocol/inspector/cli/build/cli.js
[ -f "$inspector" ] || { echo "mcp-inspect.sh: the MCP Inspector is not installed; run scripts/setup.sh" >&2; exit 1; }

if [ "${1:-}" = "--stdio" ]; then
  root=$(cd "${2:?--stdio needs a ROOT}" && pwd)
  shift 2
  target=(node --import=tsx "$PWD/src/cli.ts" mcp "$root")
else
  target=("${1:-http://127.0.0.1:7077/mcp}" --transport http)
  [ "$#" -gt 0 ] && shift
fi
[ "$#" -gt 0 ] || set -- --method tools/list
exec node "$inspector" --cli "${target[@]}" "$@"
