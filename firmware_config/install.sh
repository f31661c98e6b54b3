#!/usr/bin/env bash
# Install the Vegas Table Companion on Raspberry Pi OS Bookworm (Pi 4 or Pi 5), from a fresh image.
#
#   sudo ./firmware_config/install.sh             install or upgrade, start the service
#   sudo ./firmware_config/install.sh --kiosk     also show the scoreboard on a display attached to the Pi
#   ./firmware_config/install.sh --dry-run        print every action, change nothing (no sudo needed)
#   sudo ./firmware_config/install.sh --uninstall remove it; the journal and the config stay
#   sudo ./firmware_config/install.sh --uninstall --purge   ... and remove them and the user too
#
# What it does: apt packages (picamera2, lgpio and gpiozero come from apt and are seen through a venv
# made with --system-site-packages; it checks first that apt has them), an unprivileged user
# "companion" in the gpio and video groups, the package in /opt/companion/venv (built from a copy of
# this checkout, which is only read), a `companion` command in /usr/local/bin, the login user who ran
# sudo in the companion, gpio and video groups (to read the config and the pins), the config in
# /etc/companion, a systemd unit allowed to listen on port 80 (AmbientCapabilities, no setcap), the
# camera lines in /boot/firmware/config.txt, and the hostname so the tablet opens
# http://companion.local. Running it again upgrades in place.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$(dirname "$HERE")"

ROOT=""
DRY_RUN=0
ACTION=install
KIOSK=0
PURGE=0
NEW_HOSTNAME=companion

SERVICE_USER=companion
LOGIN_USER="${SUDO_USER:-}"  # the person who ran sudo: may read the config and the pins afterwards
PREFIX=/opt/companion
VENV="$PREFIX/venv"
CONF_DIR=/etc/companion
DATA_DIR=/var/lib/companion
UNIT=/etc/systemd/system/companion.service
COMMAND_LINK=/usr/local/bin/companion
BOOT_CONFIG=/boot/firmware/config.txt
KIOSK_BIN=/usr/local/bin/companion-kiosk
KIOSK_AUTOSTART=/etc/xdg/autostart/companion-kiosk.desktop
BEGIN_MARK="# >>> vegas-table-companion >>>"
END_MARK="# <<< vegas-table-companion <<<"

# espeak-ng and alsa-utils (aplay): the companion's voice through the Pi's audio (docs/voice.md)
APT_PACKAGES=(python3-venv python3-pip python3-picamera2 python3-lgpio python3-gpiozero avahi-daemon curl espeak-ng
  alsa-utils)
FROM_APT=(python3-picamera2 python3-lgpio)  # never from pip: picamera2 needs libcamera, python-prctl a compiler
STAGE=""  # the copy of the checkout the package is built from

usage() {
  sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  cat <<'EOF'

Options:
  --dry-run          print each action instead of doing it
  --kiosk            install Chromium and start it full-screen once the companion is healthy
  --hostname NAME    mDNS name, the tablet opens http://NAME.local (default: companion)
  --user NAME        the login user to let read the config and the pins (default: $SUDO_USER)
  --uninstall        remove the service, the venv, the kiosk and the config.txt lines
  --purge            with --uninstall: also remove /etc/companion, /var/lib/companion and the user
  --root DIR         with --dry-run: read the files it would edit under DIR (for tests)
EOF
}

while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --kiosk) KIOSK=1 ;;
    --uninstall) ACTION=uninstall ;;
    --purge) PURGE=1 ;;
    --hostname) NEW_HOSTNAME="${2:?--hostname needs a name}"; shift ;;
    --user) LOGIN_USER="${2:?--user needs a name}"; shift ;;
    --root) ROOT="${2:?--root needs a directory}"; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

if [ -n "$ROOT" ] && [ "$DRY_RUN" -eq 0 ]; then
  echo "install.sh: --root only makes sense with --dry-run" >&2
  exit 2
fi
if [ "$DRY_RUN" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: run it with sudo (or try --dry-run first)" >&2
  exit 1
fi
if ! [[ "$NEW_HOSTNAME" =~ ^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$ ]]; then
  echo "install.sh: --hostname must be lower-case letters, digits and dashes" >&2
  exit 2
fi

say() { printf '==> %s\n' "$*"; }

# quote ARG: the argument as a shell word, single-quoted only when it needs to be.
quote() {
  if [[ "$1" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
    printf '%s' "$1"
  else
    printf "'%s'" "${1//\'/\'\\\'\'}"
  fi
}

# run CMD...: a system command, printed instead of run under --dry-run.
run() {
  if [ "$DRY_RUN" -eq 1 ]; then
    printf '+'
    local arg
    for arg in "$@"; do
      printf ' %s' "$(quote "$arg")"
    done
    printf '\n'
  else
    "$@"
  fi
}

# maybe CMD...: like run, but a failure is fine (removing what may not be there).
maybe() {
  run "$@" || say "(ignored: $1 failed)"
}

# put SRC DEST MODE: install a file from this folder.
put() {
  run install -D -m "$3" "$1" "$ROOT$2"
}

exists() { [ -e "$ROOT$1" ]; }

# systemd runs here (not a chroot or an image being built); INSTALL_SYSTEMD=running|absent overrides.
systemd_running() {
  case "${INSTALL_SYSTEMD:-}" in
    running) return 0 ;;
    absent) return 1 ;;
  esac
  [ "$DRY_RUN" -eq 1 ] || [ -d /run/systemd/system ]
}

# stop MESSAGE: a problem the install cannot go past; a dry run says so and goes on printing.
stop() {
  if [ "$DRY_RUN" -eq 1 ]; then
    say "a real run would stop here: $*"
  else
    echo "install.sh: $*" >&2
    exit 1
  fi
}

cleanup() {
  if [ -n "$STAGE" ] && [ "$DRY_RUN" -eq 0 ]; then
    rm -rf "$STAGE"
  fi
}
trap cleanup EXIT

check_os() {
  local codename=""
  if exists /etc/os-release; then
    codename="$(sed -n 's/^VERSION_CODENAME=//p' "$ROOT/etc/os-release")"
  fi
  if [ "$codename" != "bookworm" ]; then
    say "warning: this is written for Raspberry Pi OS Bookworm; found '${codename:-unknown}'"
  fi
  if ! exists "$BOOT_CONFIG"; then
    say "warning: no $BOOT_CONFIG: not a Raspberry Pi OS Bookworm image? The camera lines are skipped."
  fi
}

# apt_candidate PKG: the version apt would install, or nothing.
apt_candidate() {
  local version
  version="$(apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
  [ "$version" = "(none)" ] || printf '%s' "$version"
}

check_apt_sources() {
  local pkg missing=()
  for pkg in "${FROM_APT[@]}"; do
    [ -n "$(apt_candidate "$pkg")" ] || missing+=("$pkg")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "apt has ${FROM_APT[*]} (the camera and the Pi 5's GPIO come from apt, never from pip)"
    return 0
  fi
  stop "apt has no ${missing[*]}: they come from Raspberry Pi OS's own archive (archive.raspberrypi.com)," \
    "and pip cannot build picamera2 (its python-prctl needs gcc and libcap-dev, and it needs libcamera)." \
    "Use Raspberry Pi OS Bookworm, or add that archive to /etc/apt/sources.list.d/ and run apt-get update;" \
    "then run this again."
}

# The venv must see apt's picamera2 and lgpio: otherwise pip would fetch picamera2 from the package
# index and fail building python-prctl.
check_venv_sees_apt() {
  local python="$ROOT$VENV/bin/python" problem
  if [ "$DRY_RUN" -eq 1 ]; then
    printf '+ check: %s -c '"'"'import picamera2, lgpio'"'"'  (apt'"'"'s, through --system-site-packages)\n' "$python"
    return 0
  fi
  if ! problem="$("$python" -c 'import picamera2, lgpio' 2>&1)"; then
    stop "the venv cannot import apt's picamera2 and lgpio (${problem##*$'\n'}), so pip would try to build" \
      "picamera2 and fail. Run: sudo apt-get install --reinstall ${FROM_APT[*]}; if python3 is not" \
      "Debian's /usr/bin/python3, or $VENV was made without --system-site-packages, sudo rm -rf $VENV;" \
      "then run this again."
  fi
}

# copy_source: the checkout as it is, without what builds and runs leave in it, into $STAGE. pip builds
# in the copy, so nothing root-owned (build/, *.egg-info) is ever written into the user's checkout.
copy_source() {
  local excludes=(--exclude=./.git --exclude='./.venv*' --exclude=./build --exclude=./dist
    --exclude='*.egg-info' --exclude=./data --exclude='__pycache__' --exclude='.*_cache')
  if [ "$DRY_RUN" -eq 1 ]; then
    printf '+ copy %s to %s (without .git, .venv*, build, dist, *.egg-info, data, caches)\n' "$SOURCE" "$STAGE"
  else
    tar -C "$SOURCE" "${excludes[@]}" -cf - . | tar -C "$STAGE" -xf -
  fi
}

install_packages() {
  check_apt_sources
  say "apt packages: ${APT_PACKAGES[*]}"
  run apt-get update
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

create_user() {
  local group
  for group in gpio video audio; do  # Raspberry Pi OS has all three; a bare Debian (or a chroot) may lack gpio
    if ! getent group "$group" >/dev/null 2>&1; then
      run groupadd --system "$group"
    fi
  done
  if id -u "$SERVICE_USER" >/dev/null 2>&1; then
    say "user $SERVICE_USER exists; making sure it is in gpio, video and audio"
    run usermod -a -G gpio,video,audio "$SERVICE_USER"
  else
    say "user $SERVICE_USER (no login, no password, groups gpio, video and audio)"
    run useradd --system --user-group --groups gpio,video,audio --home-dir "$DATA_DIR" --no-create-home \
      --shell /usr/sbin/nologin "$SERVICE_USER"
  fi
}

install_package() {
  say "the companion into $VENV (venv with system site packages: apt's picamera2 and lgpio stay visible)"
  if ! exists "$VENV/bin/python"; then
    run python3 -m venv --system-site-packages "$ROOT$VENV"
  fi
  check_venv_sees_apt
  if [ "$DRY_RUN" -eq 1 ]; then
    STAGE=/tmp/companion-build.XXXXXX
  else
    STAGE="$(mktemp -d /tmp/companion-build.XXXXXX)"
  fi
  say "building from a copy in $STAGE: $SOURCE is only read"
  copy_source
  run "$ROOT$VENV/bin/pip" install --disable-pip-version-check --upgrade \
    --constraint "$HERE/pi-constraints.txt" "${STAGE}[pi]"
  run rm -rf "$STAGE"
  put "$SOURCE/docs/install-pi.md" "$PREFIX/docs/install-pi.md" 0644
  put "$SOURCE/docs/hardware.md" "$PREFIX/docs/hardware.md" 0644
  say "the companion command on everyone's PATH: $COMMAND_LINK"
  run ln -sfn "$VENV/bin/companion" "$ROOT$COMMAND_LINK"
}

# The login user may read the config (root:companion 0640) and the pins (gpio), and run the hardware
# commands, without sudo: the groups apply from their next login.
add_login_user() {
  if [ -z "$LOGIN_USER" ] || [ "$LOGIN_USER" = root ]; then
    say "no login user to add to the companion group (run with sudo from your account, or --user NAME)"
    return 0
  fi
  if [ "$DRY_RUN" -eq 0 ] && ! id -u "$LOGIN_USER" >/dev/null 2>&1; then
    say "warning: no user $LOGIN_USER; nobody was added to the companion group"
    return 0
  fi
  say "$LOGIN_USER joins the groups $SERVICE_USER, gpio and video (log out and in again for it to apply)"
  run usermod -a -G "$SERVICE_USER,gpio,video" "$LOGIN_USER"
}

install_config() {
  if exists "$CONF_DIR/companion.toml"; then
    say "keeping $CONF_DIR/companion.toml; the new default goes to companion.toml.new"
    put "$HERE/companion.toml" "$CONF_DIR/companion.toml.new" 0640
  else
    # a fresh table PIN instead of the shipped 1234 (companion run refuses 1234 with real devices)
    local pin
    pin=$(printf '%06d' $(( $(od -An -N4 -tu4 /dev/urandom) % 1000000 )))
    say "default config $CONF_DIR/companion.toml with the table PIN $pin (change it on the tablet or in [server])"
    put "$HERE/companion.toml" "$CONF_DIR/companion.toml" 0640
    run sed -i "s/^pin = \"1234\"/pin = \"$pin\"/" "$ROOT$CONF_DIR/companion.toml"
  fi
  run chown -R "root:$SERVICE_USER" "$ROOT$CONF_DIR"
}

install_boot_config() {
  exists "$BOOT_CONFIG" || return 0
  if grep -qF "$BEGIN_MARK" "$ROOT$BOOT_CONFIG"; then
    say "$BOOT_CONFIG already has the camera lines"
    return 0
  fi
  say "camera lines appended to $BOOT_CONFIG (a reboot applies them)"
  if [ "$DRY_RUN" -eq 1 ]; then
    printf '+ append to %s:\n' "$ROOT$BOOT_CONFIG"
    sed 's/^/    /' "$HERE/boot-config.txt"
  else
    {
      printf '\n%s\n' "$BEGIN_MARK"
      cat "$HERE/boot-config.txt"
      printf '%s\n' "$END_MARK"
    } >>"$BOOT_CONFIG"
  fi
}

remove_boot_config() {
  exists "$BOOT_CONFIG" || return 0
  grep -qF "$BEGIN_MARK" "$ROOT$BOOT_CONFIG" || return 0
  say "removing the camera lines from $BOOT_CONFIG"
  run sed -i "/^$BEGIN_MARK\$/,/^$END_MARK\$/d" "$ROOT$BOOT_CONFIG"
}

set_hostname() {
  local current=""
  if exists /etc/hostname; then
    current="$(cat "$ROOT/etc/hostname")"
  fi
  if [ "$current" = "$NEW_HOSTNAME" ]; then
    say "hostname is already $NEW_HOSTNAME"
  else
    say "hostname $NEW_HOSTNAME: avahi announces it, the tablet opens http://$NEW_HOSTNAME.local"
    if command -v raspi-config >/dev/null 2>&1; then
      run raspi-config nonint do_hostname "$NEW_HOSTNAME" # also fixes /etc/hosts
    else
      if systemd_running; then
        run hostnamectl set-hostname "$NEW_HOSTNAME"
      else
        run sed -i "1s/.*/$NEW_HOSTNAME/" "$ROOT/etc/hostname"
      fi
      if exists /etc/hosts; then
        run sed -i "s/^127\\.0\\.1\\.1[[:space:]].*/127.0.1.1\\t$NEW_HOSTNAME/" "$ROOT/etc/hosts"
      fi
    fi
  fi
  if systemd_running; then
    run systemctl enable --now avahi-daemon.service
  else
    run systemctl enable avahi-daemon.service
  fi
}

install_service() {
  say "systemd unit $UNIT (runs as $SERVICE_USER, restarts on failure, gives up after 5 tries in 5 min)"
  put "$HERE/companion.service" "$UNIT" 0644
  if ! systemd_running; then
    say "systemd is not running here (a chroot, or an image being built): the service starts at the next boot"
    run systemctl enable companion.service
    return 0
  fi
  run systemctl daemon-reload
  run systemctl enable companion.service
  run systemctl restart companion.service
}

install_kiosk() {
  say "kiosk: Chromium full-screen on the attached display once http://localhost answers /api/health"
  # Raspberry Pi OS called the package chromium-browser; later images call it chromium.
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium-browser ||
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
  put "$HERE/kiosk.sh" "$KIOSK_BIN" 0755
  put "$HERE/companion-kiosk.desktop" "$KIOSK_AUTOSTART" 0644
  if command -v raspi-config >/dev/null 2>&1; then
    run raspi-config nonint do_boot_behaviour B4 # desktop, logged in automatically
  else
    say "warning: set the desktop to log in automatically, or the kiosk starts only after a login"
  fi
}

uninstall() {
  say "stopping and removing the service"
  if systemd_running; then
    maybe systemctl disable --now companion.service
  else
    maybe systemctl disable companion.service
  fi
  run rm -f "$ROOT$UNIT"
  if systemd_running; then
    run systemctl daemon-reload
    maybe systemctl reset-failed companion.service
  fi
  say "removing $PREFIX, the companion command and the kiosk"
  run rm -rf "$ROOT$PREFIX"
  if [ -L "$ROOT$COMMAND_LINK" ] || [ "$DRY_RUN" -eq 1 ]; then
    run rm -f "$ROOT$COMMAND_LINK"
  fi
  run rm -f "$ROOT$KIOSK_BIN" "$ROOT$KIOSK_AUTOSTART"
  remove_boot_config
  if [ "$PURGE" -eq 1 ]; then
    say "purging the config, every journal in $DATA_DIR and the user $SERVICE_USER"
    run rm -rf "$ROOT$CONF_DIR" "$ROOT$DATA_DIR"
    maybe userdel "$SERVICE_USER"
  else
    say "kept $CONF_DIR and $DATA_DIR (the journal of every game); --purge removes them"
  fi
  say "the hostname and the apt packages are left as they are"
}

main() {
  [ "$DRY_RUN" -eq 1 ] && say "dry run: nothing is changed"
  if [ "$ACTION" = uninstall ]; then
    uninstall
    return 0
  fi
  check_os
  install_packages
  create_user
  install_package
  add_login_user
  install_config
  install_boot_config
  set_hostname
  install_service
  if [ "$KIOSK" -eq 1 ]; then
    install_kiosk
  fi
  say "done: open http://$NEW_HOSTNAME.local on the tablet; reboot once if the camera lines were added"
}

main
