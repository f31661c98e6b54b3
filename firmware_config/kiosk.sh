#!/usr/bin/env bash
# Full-screen scoreboard on a display attached to the Pi (install.sh --kiosk installs this as
# /usr/local/bin/companion-kiosk and starts it from the desktop session's autostart).
#
# Chromium is started only once the companion answers its health check, so the screen never shows
# "This site can't be reached"; if Chromium exits (or is killed), it waits for the daemon again.
set -euo pipefail

CONFIG="${COMPANION_CONFIG:-/etc/companion/companion.toml}"
if [ -z "${COMPANION_URL:-}" ]; then
  # The port of [server] in the companion's own config, so the two never disagree.
  port="$(sed -n 's/^port[[:space:]]*=[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$CONFIG" 2>/dev/null | head -n 1)"
  COMPANION_URL="http://localhost:${port:-80}"
fi
URL="$COMPANION_URL"
HEALTH="${URL%/}/api/health"
WAIT_S="${COMPANION_KIOSK_WAIT_S:-2}"

browser=""
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then
    browser="$candidate"
    break
  fi
done
if [ -z "$browser" ]; then
  echo "companion-kiosk: no chromium found (sudo apt-get install chromium-browser)" >&2
  exit 1
fi

healthy() {
  # The web app answers {"ok": true, ...}; anything else (refused, 5xx, ok false) means "not yet".
  curl -fsS --max-time 3 "$HEALTH" 2>/dev/null | grep -Eq '"ok"[[:space:]]*:[[:space:]]*true'
}

while true; do
  until healthy; do
    sleep "$WAIT_S"
  done
  # A profile in a scratch folder: no "restore pages?" bubble after a power cut.
  profile="$(mktemp -d -t companion-kiosk.XXXXXX)"
  "$browser" --kiosk --noerrdialogs --disable-infobars --no-first-run \
    --disable-session-crashed-bubble --disable-features=Translate --overscroll-history-navigation=0 \
    --check-for-update-interval=31536000 --password-store=basic --user-data-dir="$profile" \
    "$URL" || true
  rm -rf "$profile"
  sleep "$WAIT_S"
done
