#!/usr/bin/env bash
# `npm test`: typecheck, lint (with the import boundaries), unit tests, then the e2e suite.
# The keychain tests need a Secret Service: when this machine has gnome-keyring and D-Bus, the
# whole run happens inside a private D-Bus session with a fresh, unlocked keyring, so tests never
# touch your own keychain.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BLOTTER_TEST_SESSION:-}" ] && command -v dbus-run-session >/dev/null 2>&1 \
  && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export BLOTTER_TEST_SESSION=1
  # A private keyring folder too: parallel sessions on one machine must not share keyring files.
  keyring_home=$(mktemp -d)
  status=0
  XDG_DATA_HOME="$keyring_home" dbus-run-session -- bash -c \
    'echo -n blotter-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec bash scripts/test.sh' \
    || status=$?
  rm -rf "$keyring_home"
  exit "$status"
fi

mkdir -p test-results
node scripts/native-abi.mjs node
echo "== typecheck"; npx tsc --noEmit -p tsconfig.json
# Each step on its own line: a failure in an `a && b` list would not stop the run under `set -e`.
echo "== lint"; npx eslint .; npx prettier --check . >/dev/null; echo "lint ok"
echo "== unit"
unit=0; npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json || unit=$?
echo "== scale (alone: several processes against one server)"
scale=0; npx vitest run -c vitest.scale.config.ts --reporter=default --reporter=json --outputFile=test-results/vitest-scale.json || scale=$?
echo "== e2e"
e2e=0; npx electron-vite build >/dev/null && npx playwright test -c e2e/playwright.config.ts || e2e=$?
node scripts/test-summary.mjs
exit $(( unit || scale || e2e ))
