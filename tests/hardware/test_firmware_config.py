"""firmware_config/ off the Pi: the unit through systemd-analyze, the scripts through shellcheck and a
dry run against a fake root, the kiosk's health gate with stand-in curl and chromium, the default TOML."""

from __future__ import annotations

import grp
import os
import shlex
import shutil
import subprocess
import tempfile
import tomllib
from pathlib import Path

import pytest

from companion.hardware.debounce import ButtonTiming
from companion.hardware.pins import PinMap

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_config"
UNIT = FIRMWARE / "companion.service"
INSTALL = FIRMWARE / "install.sh"
KIOSK = FIRMWARE / "kiosk.sh"
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def unit_settings() -> dict[str, str]:
    settings = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            settings[key.strip()] = value.strip()
    return settings


# --- the systemd unit ------------------------------------------------------------------------------
def verify_unit(tmp_path: Path, text: str) -> str:
    """Run systemd-analyze verify on the unit inside a fake root holding the stock units and our binary."""
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    if not SYSTEM_UNITS.is_dir():
        pytest.skip(f"{SYSTEM_UNITS} is missing: no stock units to verify against")
    root = tmp_path / "root"
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    exe = root / "opt/companion/venv/bin/companion"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    unit = root / "etc/systemd/system/companion.service"
    unit.parent.mkdir(parents=True)
    unit.write_text(text)
    done = subprocess.run(
        ["systemd-analyze", "verify", f"--root={root}", "/etc/systemd/system/companion.service"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return "\n".join(line for line in output.splitlines() if "companion" in line)


def test_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    assert verify_unit(tmp_path, UNIT.read_text()) == ""


def test_systemd_analyze_would_catch_a_typo(tmp_path: Path) -> None:
    """The check above is not vacuous: a misspelt key is reported."""
    broken = UNIT.read_text().replace("ProtectHome=yes", "ProtectHme=yes")
    assert "Unknown key 'ProtectHme'" in verify_unit(tmp_path, broken)


def test_unit_has_the_settings_the_issue_asks_for() -> None:
    s = unit_settings()
    assert s["ExecStart"] == "/opt/companion/venv/bin/companion run --config /etc/companion/companion.toml"
    assert s["Restart"] == "on-failure" and float(s["RestartSec"]) > 0
    assert int(s["StartLimitBurst"]) >= 1 and int(s["StartLimitIntervalSec"]) > 0
    assert s["User"] == "companion" and set(s["SupplementaryGroups"].split()) == {"gpio", "video", "audio"}
    assert s["KillSignal"] == "SIGTERM" and int(s["TimeoutStopSec"]) > 0
    assert s["AmbientCapabilities"] == s["CapabilityBoundingSet"] == "CAP_NET_BIND_SERVICE"
    # Options that would hide /dev/gpiochip* or the camera from the service must stay out.
    assert not {"PrivateDevices", "DevicePolicy", "DeviceAllow", "ProtectClock", "PrivateUsers"} & set(s)


# --- the scripts -----------------------------------------------------------------------------------
SCRIPTS = [INSTALL, KIOSK, *sorted((FIRMWARE.parent / "scripts").iterdir()), FIRMWARE.parent / ".ci/run"]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_is_clean(script: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("shellcheck is not installed (apt-get install shellcheck)")
    done = subprocess.run(["shellcheck", str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout


def fake_pi(tmp_path: Path) -> Path:
    root = tmp_path / "pi"
    (root / "etc").mkdir(parents=True)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
    (root / "etc/hostname").write_text("raspberrypi\n")
    (root / "etc/hosts").write_text("127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n")
    (root / "boot/firmware/config.txt").write_text("[all]\ndtparam=audio=on\ncamera_auto_detect=1\n")
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


APT_HAS_THEM = "Candidate: 2.0-1"  # what apt-cache policy prints for a package the sources have
APT_LACKS_THEM = "Candidate: (none)"


def fake_apt_cache(tmp_path: Path, policy: str) -> Path:
    """A bin folder whose apt-cache answers ``policy`` for every package (as on a Pi, or not)."""
    bin_dir = tmp_path / "fakebin"
    bin_dir.mkdir(exist_ok=True)
    tool = bin_dir / "apt-cache"
    tool.write_text(f"#!/bin/sh\necho \"$2:\"\necho '  Installed: (none)'\necho '  {policy}'\n")
    tool.chmod(0o755)
    return bin_dir


def install(*args: str, apt: str = APT_HAS_THEM, **env_extra: str) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory() as tmp:
        bin_dir = fake_apt_cache(Path(tmp), apt)
        # no raspi-config here: the generic branches run; no SUDO_USER unless a test gives one
        env = {**os.environ, "PATH": f"{bin_dir}:/usr/bin:/bin", **env_extra}
        env.pop("SUDO_USER", None) if "SUDO_USER" not in env_extra else None
        return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, env=env)


def commands(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("+ ")]


def test_dry_run_prints_every_action_and_changes_nothing(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    before = snapshot(root)
    done = install("--dry-run", "--root", str(root), "--kiosk")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert snapshot(root) == before
    assert "Bookworm; found" not in out and "camera lines are skipped" not in out
    expected = [
        "+ env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-venv "
        "python3-pip python3-picamera2 python3-lgpio python3-gpiozero avahi-daemon curl espeak-ng alsa-utils",
        "--groups gpio,video,audio --home-dir /var/lib/companion --no-create-home --shell /usr/sbin/nologin companion",
        f"+ python3 -m venv --system-site-packages {root}/opt/companion/venv",
        f"+ check: {root}/opt/companion/venv/bin/python -c 'import picamera2, lgpio'",
        f"+ copy {FIRMWARE.parent} to /tmp/companion-build.XXXXXX (without .git, .venv*, build, dist, *.egg-info",
        f"--constraint {FIRMWARE}/pi-constraints.txt '/tmp/companion-build.XXXXXX[pi]'",
        "+ rm -rf /tmp/companion-build.XXXXXX",
        f"+ ln -sfn /opt/companion/venv/bin/companion {root}/usr/local/bin/companion",
        f"+ install -D -m 0640 {FIRMWARE}/companion.toml {root}/etc/companion/companion.toml",
        f"+ append to {root}/boot/firmware/config.txt:",
        "    camera_auto_detect=1",
        "+ hostnamectl set-hostname companion",
        f"127.0.1.1\\tcompanion/' {root}/etc/hosts",
        "http://companion.local",
        f"+ install -D -m 0644 {FIRMWARE}/companion.service {root}/etc/systemd/system/companion.service",
        "+ systemctl daemon-reload\n+ systemctl enable companion.service\n+ systemctl restart companion.service",
        "apt-get install -y --no-install-recommends chromium-browser",
        f"+ install -D -m 0755 {FIRMWARE}/kiosk.sh {root}/usr/local/bin/companion-kiosk",
        f"{root}/etc/xdg/autostart/companion-kiosk.desktop",
    ]
    for line in expected:
        assert line in out, line
    assert "setcap" not in out
    assert "apt has python3-picamera2 python3-lgpio" in out and "would stop" not in out
    for group in ("gpio", "video"):  # made only where missing (a bare Debian has no gpio group)
        assert (f"+ groupadd --system {group}" in out) == (group not in {g.gr_name for g in grp.getgrall()})
    assert "no login user to add" in out and "usermod -a -G companion" not in out  # no sudo, no --user


def test_nothing_is_written_into_the_checkout(tmp_path: Path) -> None:
    """The checkout is only ever read: copied, or a file installed from it, never a destination or
    what pip builds in (a root-owned build/ and *.egg-info there broke the user's own `pip install -e .`)."""
    out = install("--dry-run", "--root", str(fake_pi(tmp_path)), "--kiosk", "--user", "pi").stdout
    checkout = str(FIRMWARE.parent)
    for line in commands(out):
        if line.startswith("+ check: "):  # reads the venv, says so in words
            assert checkout not in line, line
            continue
        words = shlex.split(line[2:])
        if line.startswith("+ copy "):
            assert words[1] == checkout and not words[3].startswith(checkout), line
            continue
        assert not words[-1].startswith(checkout), line  # never a destination
        if "pip" in words[0]:
            assert not any(w.startswith(checkout) and w.endswith("[pi]") for w in words), line


def test_the_login_user_joins_the_groups_that_read_the_config_and_the_pins(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    for how in (("--user", "pi"), ()):
        env = {} if how else {"SUDO_USER": "pi"}
        out = install("--dry-run", "--root", str(root), *how, **env).stdout
        assert "+ usermod -a -G companion,gpio,video pi" in out
        assert "log out and in again" in out
        # after the venv and the user exist, before the config is handed to the companion group
        lines = commands(out)
        at = next(i for i, line in enumerate(lines) if "usermod -a -G companion,gpio,video" in line)
        assert any("useradd" in line for line in lines[:at])
        assert any("chown -R root:companion" in line for line in lines[at:])
    assert "usermod -a -G companion" not in install("--dry-run", "--root", str(root), SUDO_USER="root").stdout


def test_without_apts_picamera2_and_lgpio_it_says_what_to_do(tmp_path: Path) -> None:
    out = install("--dry-run", "--root", str(fake_pi(tmp_path)), apt=APT_LACKS_THEM).stdout
    stop = next(line for line in out.splitlines() if "would stop here" in line)
    assert "apt has no python3-picamera2 python3-lgpio" in stop
    assert "archive.raspberrypi.com" in stop and "python-prctl" in stop and "run this again" in stop
    # the check comes before anything is installed
    assert out.index("would stop here") < out.index("+ apt-get update")


def test_without_systemd_running_the_service_starts_at_next_boot(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    out = install("--dry-run", "--root", str(root), INSTALL_SYSTEMD="absent").stdout
    assert "the service starts at the next boot" in out
    assert "+ systemctl enable companion.service" in out and "+ systemctl enable avahi-daemon.service" in out
    ran = "\n".join(commands(out))
    assert "daemon-reload" not in ran and "restart" not in ran and "--now" not in ran
    assert "hostnamectl" not in out and f"+ sed -i '1s/.*/companion/' {root}/etc/hostname" in out
    gone = install("--dry-run", "--root", str(root), "--uninstall", INSTALL_SYSTEMD="absent").stdout
    assert "+ systemctl disable companion.service" in gone
    assert f"+ rm -f {root}/etc/systemd/system/companion.service" in gone
    assert "daemon-reload" not in gone and "reset-failed" not in gone and "--now" not in gone


def test_second_run_keeps_the_config_and_the_boot_lines(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    config_txt = root / "boot/firmware/config.txt"
    config_txt.write_text(config_txt.read_text() + "# >>> vegas-table-companion >>>\n# <<< vegas-table-companion <<<\n")
    (root / "etc/companion").mkdir()
    (root / "etc/companion/companion.toml").write_text("[server]\npin = '9876'\n")
    (root / "etc/hostname").write_text("companion\n")
    out = install("--dry-run", "--root", str(root)).stdout
    assert "already has the camera lines" in out and "append to" not in out
    assert f"{root}/etc/companion/companion.toml.new" in out
    assert "hostname is already companion" in out
    assert "chromium" not in out  # no --kiosk


def test_off_bookworm_it_warns_and_skips_the_boot_lines(tmp_path: Path) -> None:
    out = install("--dry-run", "--root", str(tmp_path)).stdout
    assert "warning: this is written for Raspberry Pi OS Bookworm; found 'unknown'" in out
    assert "append to" not in out


def test_uninstall_keeps_the_journal_unless_purged(tmp_path: Path) -> None:
    root = fake_pi(tmp_path)
    config_txt = root / "boot/firmware/config.txt"
    config_txt.write_text(
        config_txt.read_text() + "# >>> vegas-table-companion >>>\ncamera_auto_detect=1\n"
        "# <<< vegas-table-companion <<<\n"
    )
    keep = install("--dry-run", "--root", str(root), "--uninstall").stdout
    assert "+ systemctl disable --now companion.service" in keep
    assert f"+ rm -rf {root}/opt/companion" in keep
    assert f"+ rm -f {root}/usr/local/bin/companion" in keep
    assert f"{root}/boot/firmware/config.txt" in keep and "sed -i" in keep
    assert "kept /etc/companion and /var/lib/companion" in keep and "userdel" not in keep
    purge = install("--dry-run", "--root", str(root), "--uninstall", "--purge").stdout
    assert f"+ rm -rf {root}/etc/companion {root}/var/lib/companion" in purge and "+ userdel companion" in purge


def test_removing_the_boot_lines_leaves_the_rest(tmp_path: Path) -> None:
    """The sed expression uninstall prints, run for real on a copy of config.txt."""
    root = fake_pi(tmp_path)
    config_txt = root / "boot/firmware/config.txt"
    original = config_txt.read_text()
    block = (FIRMWARE / "boot-config.txt").read_text()
    config_txt.write_text(
        original + "\n# >>> vegas-table-companion >>>\n" + block + "# <<< vegas-table-companion <<<\n"
    )
    out = install("--dry-run", "--root", str(root), "--uninstall").stdout
    sed_line = next(line for line in out.splitlines() if line.startswith("+ sed -i"))
    subprocess.run(["bash", "-c", sed_line[2:]], check=True, timeout=10)
    assert config_txt.read_text() == original + "\n"


def test_bad_options_are_refused(tmp_path: Path) -> None:
    assert install("--root", str(tmp_path)).returncode == 2  # --root without --dry-run
    assert install("--dry-run", "--frobnicate").returncode == 2
    assert install("--dry-run", "--hostname", "Bad_Name").returncode == 2


# --- the kiosk -------------------------------------------------------------------------------------
def test_kiosk_starts_chromium_only_once_the_health_check_answers(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "curl-calls"
    # A stand-in curl: refused twice, then {"ok": true}. A stand-in chromium: records how it was started
    # and how many health checks came before, then stops the kiosk loop.
    (bin_dir / "curl").write_text(
        f'#!/bin/bash\necho "$*" >> {calls}\n[ "$(wc -l < {calls})" -ge 3 ] || exit 7\necho \'{{"ok": true}}\'\n'
    )
    (bin_dir / "chromium").write_text(
        f'#!/bin/bash\necho "checks=$(wc -l < {calls}) $*" > {tmp_path}/chromium-args\nkill -TERM "$PPID"\n'
    )
    for tool in ("curl", "chromium"):
        (bin_dir / tool).chmod(0o755)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "COMPANION_CONFIG": str(FIRMWARE / "companion.toml"),
        "COMPANION_KIOSK_WAIT_S": "0",
        "TMPDIR": str(tmp_path),
    }
    subprocess.run(["bash", str(KIOSK)], env=env, capture_output=True, text=True, timeout=30)
    started = (tmp_path / "chromium-args").read_text()
    assert started.startswith("checks=3 --kiosk ")
    assert started.rstrip().endswith(" http://localhost:80")
    assert "http://localhost:80/api/health" in calls.read_text()


# --- the default config ----------------------------------------------------------------------------
def default_config() -> dict[str, object]:
    with open(FIRMWARE / "companion.toml", "rb") as handle:
        return tomllib.load(handle)


def test_default_toml_pins_and_buttons_validate_to_the_code_defaults() -> None:
    data = default_config()
    pins = PinMap.from_mapping(data["pins"])  # type: ignore[arg-type]
    assert pins == PinMap() and pins.warnings() == []
    assert ButtonTiming.from_mapping(data["buttons"]) == ButtonTiming()  # type: ignore[arg-type]


def test_default_toml_is_accepted_by_the_config_loader() -> None:
    config_module = pytest.importorskip("companion.config")
    config = config_module.load(FIRMWARE / "companion.toml")
    assert config.server.port == 80 and config.server.pin == "1234"
    assert config.store.data_dir == "/var/lib/companion"
    assert config.camera["source"] == "auto"


def test_boot_config_lines_enable_the_camera() -> None:
    lines = [line for line in (FIRMWARE / "boot-config.txt").read_text().splitlines() if not line.startswith("#")]
    assert lines == ["[all]", "camera_auto_detect=1"]
