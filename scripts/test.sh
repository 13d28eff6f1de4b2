#!/usr/bin/env bash
# `npm test`: the static checks (scripts/static-checks.sh: tsc, ESLint, Prettier) side by side with
# jest, since most of jest's time is spent waiting on timers, Temporal and the services its tests
# start, and the two cores are otherwise half idle. The static checks' output is printed whole when
# they end; the script fails when either fails. Arguments go to jest.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
static_log="$(mktemp)"
trap 'rm -f "$static_log"' EXIT
bash scripts/static-checks.sh >"$static_log" 2>&1 &
static=$!
npm run --silent jest -- "$@"
jest_status=$?
wait "$static"
static_status=$?
cat "$static_log"
[ "$static_status" -eq 0 ] || echo "static checks failed (see above)" >&2
[ "$jest_status" -eq 0 ] || echo "jest failed" >&2
[ "$static_status" -eq 0 ] && [ "$jest_status" -eq 0 ]
