// The players' phones, from the tablet (with the PIN): a QR code and a code per seat, a new code,
// withdrawing a seat's phone, keeping codes for the night, and whether phones make their own moves.
// The dialog is built here, so the page's template only gains the button (added here too).
import { call } from "./api.js";
import { latestGame } from "./state.js";

const h = (tag, cls, text) => window.h(tag, cls, text);
let dialog = null;
let night = false;

function build() {
  const style = document.createElement("link");  // its own styles, beside it (the page's stay as they are)
  style.rel = "stylesheet";
  style.href = new URL("./seats.css", import.meta.url).href;
  document.head.append(style);
  dialog = h("dialog", "wide seats-dialog");
  dialog.id = "dlg-phones";
  dialog.dataset.testid = "phones";
  dialog.setAttribute("aria-labelledby", "phones-title");
  document.body.append(dialog);
}

async function load() {
  try {
    return await call("/api/seats", undefined, { method: "GET" });
  } catch (e) {
    return null;
  }
}

async function change(path, body, method = "POST") {
  try { await call(path, body, { method }); } catch (e) { return; }
  draw();
}

function seatCard(s) {
  const card = h("div", "seat-card");
  card.dataset.testid = `seat-${s.seat}`;
  card.append(h("h3", "", s.name));
  const inv = s.invite;
  if (inv) {
    const qr = h("div", "seat-qr");
    qr.innerHTML = inv.qr;  // an SVG the companion drew (segno), nothing a player typed but the escaped title
    qr.setAttribute("role", "img");
    qr.setAttribute("aria-label", _("QR code for {name}'s phone", { name: s.name }));
    const code = h("p", "seat-code", inv.code);
    code.dataset.testid = `seat-code-${s.seat}`;
    const state = h("p", "seat-state", inv.joined ? _("A phone has joined") : _("No phone yet"));
    const link = h("p", "seat-link", inv.link);
    link.dataset.testid = `seat-link-${s.seat}`;
    const where = `${window.location.origin}/phone`;
    card.append(qr, h("p", "hint", _("Scan it, or open {address} and type:", { address: where })), code, state);
    link.hidden = true;  // for a test or a curious player: the QR code's link itself
    card.append(link);
    if (inv.night) card.append(h("p", "hint", _("Kept for the night")));
    const again = h("button", "secondary", _("New code"));
    again.type = "button";
    again.onclick = () => change(`/api/seats/${s.seat}`, { night });
    const withdraw = h("button", "secondary", _("Withdraw"));
    withdraw.type = "button";
    withdraw.dataset.testid = `seat-withdraw-${s.seat}`;
    withdraw.onclick = () => change(`/api/seats/${s.seat}`, undefined, "DELETE");
    const row = h("div", "row");
    row.append(again, withdraw);
    card.append(row);
  } else {
    const ask = h("button", "primary", _("Invite a phone"));
    ask.type = "button";
    ask.dataset.testid = `seat-invite-${s.seat}`;
    ask.onclick = () => change(`/api/seats/${s.seat}`, { night });
    card.append(h("p", "hint", _("No phone for this seat")), ask);
  }
  return card;
}

async function draw() {
  const data = await load();
  if (!data) { dialog.close(); return; }
  const title = h("h2", "", _("Players' phones"));
  title.id = "phones-title";
  const grid = h("div", "seat-grid");
  grid.append(...data.seats.map(seatCard));
  const keep = h("label", "row");
  const box = h("input");
  box.type = "checkbox";
  box.checked = night;
  box.onchange = () => { night = box.checked; };
  keep.append(box, _("New codes last the whole night (they follow their player into the next games)"));
  const own = h("label", "row");
  const moves = h("input");
  moves.type = "checkbox";
  moves.checked = data.own_moves;
  moves.dataset.testid = "phones-own-moves";
  moves.onchange = () => change("/api/seats/settings", { own_moves: moves.checked }, "PUT");
  own.append(moves, _("Phones may make their own player's moves on their turn"));
  const close = h("button", "secondary", _("Close"));
  close.type = "button";
  close.onclick = () => dialog.close();
  const foot = h("div", "row");
  foot.append(close);
  dialog.replaceChildren(title, h("p", "hint", _("Each player scans their seat's code with their phone: no app and no PIN. Secret choices and face-down money then stay on that phone.")), grid, keep, own, foot);
  if (!dialog.open) dialog.showModal();
}

// The header's Phones button: shown while a game is open.
export function wireSeats() {
  build();
  const button = h("button", "", _("Phones"));
  button.type = "button";
  button.id = "btn-phones";
  button.dataset.testid = "phones-button";
  button.onclick = () => draw();
  const menu = document.querySelector("nav.menu");
  const before = document.getElementById("btn-settings");
  if (menu) menu.insertBefore(button, before);
}

export function renderSeatsButton() {
  const button = document.getElementById("btn-phones");
  if (button) button.hidden = !latestGame();
}
