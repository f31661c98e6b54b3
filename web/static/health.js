// Health view: which parts are real or simulated, camera rate, the last annotated frame, the Pi's vitals.
"use strict";
function rows(el, obj) {
  el.replaceChildren(...Object.entries(obj || {}).map(([k, v]) => {
    const tr = document.createElement("tr");
    const a = document.createElement("td");
    const b = document.createElement("td");
    a.textContent = k.replaceAll("_", " ");
    b.textContent = v === null || v === undefined ? "—" : (typeof v === "object" ? JSON.stringify(v) : String(v));
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
    next.onload = () => { img.src = next.src; document.getElementById("frame-note").textContent = ""; };
    next.onerror = () => { document.getElementById("frame-note").textContent = "No frame from the camera yet."; };
    next.src = `/api/camera/frame.jpg?t=${Date.now()}`;
  } catch (e) { /* the daemon is restarting: try again on the next tick */ }
}
refresh();
setInterval(refresh, 2000);
