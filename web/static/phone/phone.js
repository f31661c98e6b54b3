// A player's own phone: their seat (name, colour), the question put to them in large type with a
// vibration or chime, their own choices, what is theirs alone (face-down money, a secret choice) and
// the scores. The shared view comes by the event stream; what is the player's own by /api/phone,
// fetched again on every change and whenever the phone wakes (so a locked phone resumes where it is).
import { enter, join, mine, phoneSession, Refused } from "./seat-api.js";
import { nudge, wireSound } from "./nudge.js";

const $ = (id) => document.getElementById(id);
const COLOURS = ["red", "blue", "green", "yellow", "black", "white"];
let view = null;   // the latest shared view (the same every page gets)
let me = null;     // this seat's own part (/api/phone)
let source = null;
let retry = 1000;
let timer = null;

function showJoin(message) {
  if (source) { source.close(); source = null; }
  $("seat").hidden = true;
  $("join").hidden = false;
  $("refusal").hidden = !message;
  $("refusal").textContent = message || "";
  document.body.dataset.phone = "join";
}

async function refresh() {
  if (!phoneSession.get()) return showJoin("");
  try {
    me = await mine();
  } catch (e) {
    if (e instanceof Refused && (e.status === 403 || e.status === 429)) {
      if (e.status === 403) phoneSession.forget();
      return showJoin(e.message);
    }
    return setConn(false);
  }
  render();
}

function colourOf(g, seat) {
  const p = g && g.scoreboard && g.scoreboard.players && g.scoreboard.players[seat];
  return (p && p.colour) || COLOURS[seat % COLOURS.length];
}

function render() {
  if (!me) return;
  $("join").hidden = true;
  $("seat").hidden = false;
  const g = view && view.game;
  document.body.dataset.phone = "seat";
  document.body.dataset.version = String(me.version);
  const badge = window.h("span", `swatch ${colourOf(g, me.seat)}`, me.name.slice(0, 2));
  badge.setAttribute("aria-hidden", "true");
  $("me-badge").replaceChildren(badge);
  $("me-name").textContent = me.name;
  const over = !me.game || (g && g.outcome);
  $("turn").classList.toggle("mine", !!me.act);
  $("turn-head").textContent = over ? _("No game in play") : me.act ? _("Your turn") : _("Waiting for the others");
  $("prompt").textContent = me.prompt || (g ? g.awaiting.prompt : "");
  nudge(me.act ? `${g ? g.id : ""}:${me.kind}:${me.prompt}` : null);
  renderChoices();
  renderPrivate();
  renderScores(g);
}

let shownChoices = "";

// Drawn again only when the choices change: a button replaced under a finger loses the tap.
function renderChoices() {
  // by the actions alone: another seat's choice renumbers the table's options, not this seat's moves
  const key = JSON.stringify((me.options || []).map((o) => [o.action, o.label]));
  if (key === shownChoices && $("choices").childElementCount === (me.options || []).length) return;
  shownChoices = key;
  const buttons = (me.options || []).map((o, k) => {
    const b = window.h("button", "primary phone-choice", o.label);
    b.type = "button";
    b.dataset.testid = `phone-option-${k}`;
    b.onclick = async () => {
      for (const other of document.querySelectorAll(".phone-choice")) other.disabled = true;
      try {
        await enter(o.action);
      } catch (e) {
        $("refusal").textContent = e.message;
      }
      shownChoices = "";  // the buttons come back on if the choice was refused
      refresh();
    };
    return b;
  });
  $("choices").replaceChildren(...buttons);
}

function renderPrivate() {
  // a secret choice not yet made has nothing to show: the prompt above already says it
  const p = me.private && (me.game !== "cincinnati" || me.private.table) ? me.private : null;
  const box = $("private");
  box.hidden = !p;
  if (!p) return box.replaceChildren();
  const h = window.h;
  const parts = [h("h2", "", _("Only you see this"))];
  if (me.game === "lasvegas") {
    parts.push(h("p", "phone-money", `$${window.formatNumber(p.money)}`));
    const notes = h("ul", "phone-notes");
    notes.dataset.testid = "phone-notes";
    for (const note of p.notes) notes.append(h("li", "phone-note", `$${window.formatNumber(note)}`));
    if (!p.notes.length) notes.append(h("li", "muted", _("No banknotes yet")));
    parts.push(notes);
  } else if (me.game === "cincinnati") {
    parts.push(h("p", "phone-secret",
      _("You chose table {table}. The others see only that you have chosen, until everyone has.", { table: p.table })));
  }
  box.replaceChildren(...parts);
}

function renderScores(g) {
  const list = $("scores");
  if (!g || !g.scoreboard) return list.replaceChildren();
  const game = window.GameViews && window.GameViews[g.name];
  const rows = game && game.scores ? game.scores(g.scoreboard, g) : [];
  list.replaceChildren(...g.players.map((name, i) => {
    const li = window.h("li", i === me.seat ? "me" : "");
    li.append(window.h("span", `swatch ${colourOf(g, i)}`, name.slice(0, 2)), window.h("span", "who", name));
    for (const v of (rows[i] && rows[i].values) || []) li.append(window.h("span", "score", `${v.text} ${v.unit || ""}`.trim()));
    return li;
  }));
}

function setConn(live) {
  $("conn").textContent = live ? _("live") : _("reconnecting…");
  $("conn").className = live ? "pill ok" : "pill warn";
}

// The shared stream; after a failure (or a phone that slept) it is opened again, with a growing pause.
function connect() {
  clearTimeout(timer);
  if (source) source.close();
  source = new EventSource("/api/events");
  source.addEventListener("view", (e) => {
    retry = 1000;
    setConn(true);
    view = JSON.parse(e.data);
    if (!me || me.version !== view.version) refresh(); else render();
  });
  source.onerror = () => {
    if (source) source.close();
    source = null;
    setConn(false);
    timer = setTimeout(() => { connect(); refresh(); }, retry);  // its seat too: the stream may have no slot free
    retry = Math.min(retry * 2, 30000);
  };
}

function start() {
  connect();
  refresh();
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible" || !phoneSession.get()) return;
  if (!source || source.readyState === EventSource.CLOSED) connect();
  refresh();  // whatever happened while the phone slept
});

document.addEventListener("DOMContentLoaded", async () => {
  wireSound($("sound"));
  $("join-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await join({ code: $("code").value });
      start();
    } catch (err) { showJoin(err.message); }
  });
  const token = decodeURIComponent(window.location.pathname.replace(/^\/phone\/?/, ""));
  if (token) {
    window.history.replaceState(null, "", "/phone");  // the seat's key stays out of the address bar
    try {
      await join({ token });
    } catch (err) { return showJoin(err.message); }
  }
  if (phoneSession.get()) start(); else showJoin("");
});
