#!/usr/bin/env bash
# `npm test`'s static checks, side by side (the machine has two cores and they are independent):
# the type check (tsc) and the lint (ESLint and Prettier). Each one's output is printed whole; the
# script fails when either fails.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
typecheck_log="$(mktemp)"
trap 'rm -f "$typecheck_log"' EXIT
npm run --silent typecheck >"$typecheck_log" 2>&1 &
typecheck=$!
npm run --silent lint
lint_status=$?
wait "$typecheck"
typecheck_status=$?
cat "$typecheck_log"
[ "$typecheck_status" -eq 0 ] || echo "typecheck failed (tsc --noEmit)" >&2
[ "$lint_status" -eq 0 ] || echo "lint failed (eslint, prettier --check)" >&2
[ "$typecheck_status" -eq 0 ] && [ "$lint_status" -eq 0 ]
