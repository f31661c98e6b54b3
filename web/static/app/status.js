// The table's status around the game: the devices pill, the mock buttons, the banner (safe mode, a
// game reopened, a damaged PIN file), a notice from the table as a toast, the restore button, and
// the dice teaching.
import { call } from "./api.js";
import { toast } from "./toast.js";

const $ = (id) => document.getElementById(id);

// The device pill shows the rig's status words (data the page also tests, e.g. "simulated") in the
// page's language; anything else (an error from the camera) is shown as it came.
const DEVICE_WORDS = {
  camera: _("camera"), buttons: _("buttons"), lights: _("lights"), simulated: _("simulated"),
  gpio: "GPIO", absent: _("absent"), starting: _("starting"), ok: _("ok"), lost: _("lost"),
  "none (manual entry)": _("none (manual entry)"), "off (safe mode)": _("off (safe mode)"), auto: _("auto"),
};
function deviceWord(word) { return DEVICE_WORDS[word] || word; }

let noticeAt;  // undefined until the first view: an old notice is not news on (re)loading the page

export function renderStatus(status) {
  const devices = status.devices || {};
  const parts = Object.entries(devices).map(([k, s]) => `${deviceWord(k)}: ${String(s).split(": ").map(deviceWord).join(": ")}`);
  $("devices").textContent = parts.join(" · ");
  $("devices").hidden = parts.length === 0;
  $("mock-panel").hidden = devices.buttons !== "simulated";
  const banner = status.banner || status.reopen || status.pin;
  const notice = status.notice;
  if (noticeAt === undefined) {
    noticeAt = notice ? notice.at : null;
  } else if (notice && notice.at !== noticeAt) {
    toast(notice.text);
    noticeAt = notice.at;
  }
  $("banner").hidden = !banner;
  $("banner").textContent = banner || "";
  $("restore").hidden = !status.recovery;  // safe mode on a damaged journal, with a good backup
  if (window.Calibration) window.Calibration.render(status.calibration);
}

async function restoreBackup() {
  try {
    const done = await call("/api/journal/recover", {});
    toast(_("Restored {name}.", { name: done.restored || "" }));
  } catch (e) { /* the companion's reason is already shown */ }
}

// The mock panel presses the same mock pins as the table's buttons; a hold longer than 0.8 s is a long press.
function holdable(button, press) {
  let down = 0;
  button.addEventListener("pointerdown", () => { down = performance.now(); });
  button.addEventListener("pointerup", () => {
    const hold = down ? (performance.now() - down) / 1000 : 0;
    down = 0;
    press(hold);
  });
}

export function wireStatus() {
  $("btn-restore").onclick = restoreBackup;
  for (const b of document.querySelectorAll("[data-button]")) {
    holdable(b, (hold) => call(`/api/buttons/${b.dataset.button}`, { hold: hold > 0.8 ? hold : 0 }).catch(() => {}));
  }
}
