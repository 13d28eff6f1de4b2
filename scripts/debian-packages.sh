#!/usr/bin/env bash
# Installs the Debian packages the tests drive for real when they are missing: poppler-utils
# (pdftotext reads the PDF reports back), nginx (TLS/mTLS in front of the Temporal dev server) and
# chromium (the dashboard's browser test), docker-compose (Debian's compose v1, which validates
# docker-compose.yml without a Docker engine), openssl (docs/deployment.md's commands, which the
# compose tests run) and prometheus (its promtool checks monitoring/'s config and unit-tests the
# alert rules). Needs root or passwordless sudo when something is missing;
# fails with the list of what is missing otherwise.
set -euo pipefail
need=()
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v docker-compose >/dev/null 2>&1 || need+=(docker-compose)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
if [ ${#need[@]} -eq 0 ]; then
  echo "debian packages: all present (pdftotext, nginx, chromium, docker-compose, openssl, promtool)"
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    echo "debian packages: missing ${need[*]}, and this user cannot run apt-get; install them: apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
echo "debian packages: installing ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 || {
  $sudo apt-get update -qq >/dev/null 2>&1 || true
  $sudo apt-get install -y --no-install-recommends "${need[@]}" >&2
}
echo "debian packages: installed ${need[*]}"
