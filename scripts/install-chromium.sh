#!/usr/bin/env bash
# Makes sure a Chromium exists for the browser tests (test/e2e): Debian's package when we can
# install it (root, apt), else whatever CHROMIUM_PATH points at. Idempotent and quick when present.
set -euo pipefail
if [[ -n "${CHROMIUM_PATH:-}" && -x "${CHROMIUM_PATH}" ]] || command -v chromium >/dev/null 2>&1; then
  exit 0
fi
if command -v apt-get >/dev/null 2>&1; then
  SUDO=""
  if [[ "$(id -u)" != "0" ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "No Chromium for the browser tests: install one and set CHROMIUM_PATH, or run 'npx playwright install chromium'." >&2
exit 1
