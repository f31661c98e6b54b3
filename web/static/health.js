// Health view: which parts are real or simulated, camera rate, the last annotated frame, the Pi's vitals.
"use strict";
function show(key, v) {
  if (v === null || v === undefined) return "—";
  if (Array.isArray(v)) return v.length ? v.join("; ") : _("none");
  if (typeof v === "boolean") return v ? _("yes") : _("no");
  if (key.endsWith("_bytes")) {
    const units = ["B", "kB", "MB", "GB", "TB"];
    let n = v, i = 0;
    while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
    return `${n.toFixed(i ? 1 : 0)} ${units[i]}`;
  }
  if (key.endsWith("_s")) {
    const s = Math.round(v), h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
    return h ? `${h} h ${m} min` : m ? `${m} min ${s % 60} s` : `${s} s`;
  }
  if (key.endsWith("_c")) return `${v.toFixed(1)} °C`;
  if (key === "dice_read_right") return ngettext("{right} of {n} die, on rolls it did not learn from", "{right} of {n} dice, on rolls it did not learn from", v[1], { right: v[0] });
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}
const LABELS = { cpu_temperature_c: _("CPU temperature"), memory_rss_bytes: _("memory (resident)"), disk_free_bytes: _("disk free"),
  journal_bytes: _("journal size"), system_uptime_s: _("Pi up for"), process_uptime_s: _("companion up for"),
  dice_read_right: _("dice read right here"), camera: _("camera"), buttons: _("buttons"), leds: _("lights") };
function rows(el, obj) {
  el.replaceChildren(...Object.entries(obj || {}).map(([k, v]) => {
    const tr = document.createElement("tr");
    const a = document.createElement("td");
    const b = document.createElement("td");
    a.textContent = LABELS[k] || k.replaceAll("_", " ").replace(/ (bytes|s|c)$/, "");
    b.textContent = show(k, v);
    tr.append(a, b);
    return tr;
  }));
}
async function refresh() {
  try {
    const data = await (await fetch("/api/health")).json();
    rows(document.getElementById("devices"), data.devices);
    rows(document.getElementById("system"), data.system);
    const img = document.getElementById("frame");
    const next = new Image();
    next.onload = () => { img.src = next.src; img.hidden = false; document.getElementById("frame-note").textContent = ""; };
    next.onerror = () => { document.getElementById("frame-note").textContent = _("No frame from the camera yet."); };
    next.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  } catch (e) { /* the daemon is restarting: try again on the next tick */ }
}
refresh();
setInterval(refresh, 2000);
