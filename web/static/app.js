// The tablet: one live view of the table, sent whole by the server on every change (SSE).
"use strict";

const GameViews = window.GameViews || (window.GameViews = {});
const $ = (id) => document.getElementById(id);
const store = window.localStorage;
let view = null;
let entered = [];
let rollFor = null; // whose dice the pad enters when several players throw at once
let deviceId = store.getItem("deviceId");
if (!deviceId) {
  deviceId = Math.random().toString(36).slice(2, 8);
  store.setItem("deviceId", deviceId);
}

// ---- talking to the companion ------------------------------------------------------------
// quiet: the caller shows the error itself (next to what it is about)
async function call(path, body, { raw = false, retry = true, method = "POST", quiet = false } = {}) {
  const headers = { "X-Table-Pin": store.getItem("pin") || "", "X-Device": deviceId };
  if (!raw) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: raw ? body : JSON.stringify(body || {}),
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  if (res.status === 403 && retry) {
    if (await askPin(data.error)) return call(path, body, { raw, retry: false, method, quiet });
    throw new Error(data.error);
  }
  if (!res.ok) {
    if (!quiet) toast(data.error || `Request failed (${res.status})`);
    throw new Error(data.error || `Request failed (${res.status})`);
  }
  return data;
}
window.callApi = call;

function submit(action) { return call("/api/input", { action }).catch(() => {}); }
window.submitAction = submit;

function toast(text) {
  const el = $("toast");
  // An open dialog sits in the top layer, above everything else: the toast goes inside it to be seen.
  const host = document.querySelector("dialog[open]") || document.body;
  if (el.parentElement !== host) host.append(el);
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 5000);
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("view", (e) => {
    $("conn").textContent = "live";
    $("conn").className = "pill ok";
    render(JSON.parse(e.data));
  });
  source.onerror = () => {
    $("conn").textContent = "reconnecting…";
    $("conn").className = "pill warn";
  };
}

// ---- PIN -------------------------------------------------------------------------------------
function askPin(message) {
  return new Promise((resolve) => {
    const dlg = $("dlg-pin");
    $("pin-error").textContent = store.getItem("pin") ? (message || "") : "";
    $("pin-input").value = "";
    dlg.onclose = async () => {
      if (dlg.returnValue !== "ok") return resolve(false);
      store.setItem("pin", $("pin-input").value);
      const ok = await fetch("/api/pin", { method: "POST", headers: { "X-Table-Pin": $("pin-input").value } });
      updatePinButton(ok.ok);
      if (!ok.ok) { store.removeItem("pin"); toast("That PIN is not this table's PIN."); }
      resolve(ok.ok);
    };
    dlg.showModal();
  });
}

function updatePinButton(unlocked) {
  $("btn-pin").textContent = unlocked ? "Unlocked" : "Enter PIN";
}

// ---- rendering -----------------------------------------------------------------------------
window.dieEl = dieEl;
function dieEl(face, extra = "") {
  const d = document.createElement("span");
  d.className = `die ${extra}`;
  if (face === "worm") { d.append(wormIcon()); d.classList.add("worm"); d.title = "worm (5)"; }
  else { d.textContent = face; }
  return d;
}

function wormIcon() {
  const w = document.createElement("span");
  w.className = "wormicon";
  w.setAttribute("aria-label", "worm");
  return w;
}
window.wormIcon = wormIcon;

window.rerender = () => { if (view) render(view); };

function render(v) {
  view = v;
  const g = v.game;
  const devices = v.status.devices || {};
  const parts = Object.entries(devices).map(([k, s]) => `${k}: ${s}`);
  $("devices").textContent = parts.join(" · ");
  $("devices").hidden = parts.length === 0;
  $("mock-panel").hidden = devices.buttons !== "simulated";
  const banner = v.status.banner || v.status.reopen;
  const notice = v.status.notice;
  if (render.noticeAt === undefined) {
    render.noticeAt = notice ? notice.at : null;  // an old notice is not news on (re)loading the page
  } else if (notice && notice.at !== render.noticeAt) {
    toast(notice.text);
    render.noticeAt = notice.at;
  }
  $("banner").hidden = !banner;
  $("banner").textContent = banner || "";
  if (window.Calibration) window.Calibration.render(v.status.calibration);
  if (!g) {
    $("title").textContent = "Vegas Table Companion";
    $("waiting").textContent = "No game yet. Press “New game” to start one.";
    for (const id of ["options", "board", "log"]) $(id).replaceChildren();
    $("dice-entry").hidden = true;
    $("outcome").hidden = true;
    $("btn-undo").disabled = $("btn-redo").disabled = true;
    return;
  }
  $("title").textContent = `${g.title} · game ${g.id}`;
  const aw = g.awaiting;
  const who = aw.players.map((i) => g.players[i]).join(", ");
  $("waiting").textContent = aw.prompt;
  $("waiting").dataset.player = who;
  $("outcome").hidden = !g.outcome;
  $("outcome").textContent = g.outcome ? g.outcome.text : "";

  const opts = $("options");
  if (aw.kind === "secret") {
    // a hidden choice: one button per player still to choose; their options open only for them
    opts.replaceChildren(...aw.players.map((seat) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.dataset.testid = `secret-${seat}`;
      b.textContent = `${g.players[seat]}: choose in secret`;
      b.onclick = () => secretDialog(g.players[seat], aw.options.filter((o) => o.action.player === seat));
      return b;
    }));
  } else {
    opts.replaceChildren(...optionButtons(aw.options, g));
  }

  renderDiceEntry(g, aw, devices);
  const gv = GameViews[g.name];
  const board = $("board");
  if (gv && gv.render) gv.render(g.scoreboard, board, g);
  else board.textContent = JSON.stringify(g.scoreboard);

  $("btn-undo").disabled = !g.can_undo;
  $("btn-undo").title = g.undo_label ? `Undo: ${g.undo_label}` : "";
  $("btn-redo").disabled = !g.can_redo;
  $("log").replaceChildren(...g.log.slice().reverse().map((e) => {
    const li = document.createElement("li");
    li.textContent = e.text;
    li.className = `log-${e.kind}`;
    return li;
  }));
}

const ACTION_NAMES = { build: "Build", sprawl: "Sprawl", remodel: "Remodel", reorganize: "Reorganize",
  gamble: "Gamble", trade: "Trade", take: "Keep", claim: "Take a tile", place: "Place", buy: "Buy a throw",
  challenge: "Challenge", pass: "Pass", note: "Banknote", card: "Card" };

function optionButton(o) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "option" + (o.recommended ? " recommended" : "") + (o.highlighted ? " highlighted" : "");
  b.textContent = o.label;
  b.onclick = () => submit(o.action);
  return b;
}

// Few options: one big button each. Many (a Lords of Vegas turn): the usual ones first, the rest
// folded by kind of action, and a board that marks a lot filters them (game.focus).
function optionButtons(options, g) {
  const gv = GameViews[g.name] || {};
  const focus = gv.focus;
  const shown = focus ? options.filter((o) => o.recommended || JSON.stringify(o.action).includes(`"${focus}"`)) : options;
  if (shown.length <= 8) return shown.map(optionButton);
  const groups = new Map();
  const out = [];
  for (const o of shown) {
    if (o.recommended || o.highlighted) { out.push(optionButton(o)); continue; }
    const kind = o.action.type;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(o);
  }
  for (const [kind, list] of groups) {
    if (list.length === 1) { out.push(optionButton(list[0])); continue; }
    const details = document.createElement("details");
    details.className = "option-group";
    details.dataset.kind = kind;
    const summary = document.createElement("summary");
    summary.textContent = `${ACTION_NAMES[kind] || kind} (${list.length})`;
    const box = document.createElement("div");
    box.className = "options";
    box.append(...list.map(optionButton));
    details.append(summary, box);
    details.open = openGroups.has(kind);
    details.ontoggle = () => { if (details.open) openGroups.add(kind); else openGroups.delete(kind); };
    out.push(details);
  }
  return out;
}
const openGroups = new Set();

function secretDialog(name, options) {
  const dlg = $("dlg-secret");
  $("secret-title").textContent = `${name}, only you look now`;
  $("secret-options").replaceChildren(...options.map((o) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "option";
    b.textContent = o.label;
    b.onclick = async () => { dlg.close(); await submit(o.action); };
    return b;
  }));
  dlg.showModal();
}

function renderDiceEntry(g, aw, devices) {
  const box = $("dice-entry");
  const spec = aw.dice;
  box.hidden = !spec;
  if (!spec) { entered = []; return; }
  const key = `${g.id}:${g.inputs}`;
  if (renderDiceEntry.key !== key) { entered = []; renderDiceEntry.key = key; }
  const faceButton = (f, colour, limit) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "face";
    b.dataset.face = f;
    if (colour) b.dataset.colour = colour;
    b.append(dieEl(f, colour || ""));
    b.onclick = () => {
      const same = entered.filter((d) => (colour ? d.colour === colour : true)).length;
      if (entered.length < spec.count && same < limit) {
        entered.push(colour ? { face: f, colour } : f);
        drawEntered(spec);
      }
    };
    return b;
  };
  if (spec.colours.length) {
    // one row of faces per colour: the player's own dice and, where used, the white ones
    $("faces").replaceChildren(...spec.colours.map(([colour, n]) => {
      const row = document.createElement("div");
      row.className = "colour-row";
      const name = document.createElement("span");
      name.className = "colour-name";
      name.textContent = `${colour} ×${n}`;
      row.append(name, ...spec.faces.map((f) => faceButton(f, colour, n)));
      return row;
    }));
    $("faces").classList.add("by-colour");
  } else {
    $("faces").replaceChildren(...spec.faces.map((f) => faceButton(f, null, spec.count)));
    $("faces").classList.remove("by-colour");
  }
  drawEntered(spec);
  // several players throw at once (Cincinnati): say whose dice these are
  const whose = $("whose");
  if (aw.players.length > 1) {
    if (!aw.players.includes(rollFor)) rollFor = aw.players[0];
    whose.hidden = false;
    whose.replaceChildren(...aw.players.map((seat) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = seat === rollFor ? "primary" : "secondary";
      b.textContent = g.players[seat];
      b.dataset.testid = `roll-for-${seat}`;
      b.onclick = () => { rollFor = seat; renderDiceEntry(g, aw, devices); };
      return b;
    }));
  } else {
    rollFor = null;
    whose.hidden = true;
  }
  const reading = $("reading");
  reading.hidden = !g.reading;
  if (g.reading) {
    const use = document.createElement("button");
    use.type = "button";
    if (g.reading_note) {
      // an untrusted reading (wrong count, unsure dice) is never entered as it is: it is corrected
      use.className = "secondary";
      use.dataset.testid = "edit-reading";
      use.textContent = "Correct it";
      use.onclick = () => {
        entered = g.reading.slice(0, spec.count).map((d) => (spec.colours.length ? { face: d.face, colour: d.colour } : d.face));
        drawEntered(spec);
      };
    } else {
      use.className = "primary";
      use.dataset.testid = "use-reading";
      use.textContent = "Use camera reading";
      use.onclick = () => submit(rollFor !== null ? { type: "roll", dice: g.reading, player: rollFor } : { type: "roll", dice: g.reading });
    }
    const label = document.createElement("span");
    label.textContent = "Camera read: ";
    const photo = document.createElement("img");
    photo.className = "reading-photo";
    photo.alt = "what the camera read";
    photo.src = `/api/camera/frame.jpg?v=${view.version}`;
    photo.onerror = () => photo.remove();
    photo.onclick = () => photo.classList.toggle("large");
    reading.replaceChildren(photo, label, ...g.reading.map((d) => dieEl(d.face, d.colour || "")), use);
    if (g.reading_note) {
      const note = document.createElement("small");
      note.textContent = g.reading_note;
      reading.append(note);
    }
  }
  $("btn-sim").hidden = devices.camera !== "simulated";
}

function drawEntered(spec) {
  const el = $("entered");
  const chips = entered.map((f, i) => {
    const d = typeof f === "object" ? dieEl(f.face, `entered-die ${f.colour}`) : dieEl(f, "entered-die");
    d.onclick = () => { entered.splice(i, 1); drawEntered(spec); };
    return d;
  });
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = `${entered.length} of ${spec.count} dice`;
  el.replaceChildren(count, ...chips);
  $("btn-roll").disabled = entered.length !== spec.count;
}

// ---- new game, games list ------------------------------------------------------------------
function newGameDialog() {
  const select = $("new-game");
  const names = (view && view.games) || [];
  select.replaceChildren(...names.map((n) => {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = (GameViews[n] && GameViews[n].title) || n;
    return o;
  }));
  const players = $("new-players");
  const previous = (view && view.game && view.game.players) || ["Player 1", "Player 2"];
  players.replaceChildren();
  previous.forEach(addPlayerField);
  select.onchange = drawOptions;
  drawOptions();
  $("new-error").textContent = "";
  $("dlg-new").showModal();
}

function addPlayerField(name) {
  const wrap = document.createElement("div");
  wrap.className = "row player-field";
  const input = document.createElement("input");
  input.value = typeof name === "string" ? name : "";
  input.placeholder = "Player name";
  input.dataset.testid = "player-name";
  const del = document.createElement("button");
  del.type = "button";
  del.className = "secondary";
  del.textContent = "✕";
  del.onclick = () => wrap.remove();
  wrap.append(input, del);
  $("new-players").append(wrap);
}

function drawOptions() {
  const gv = GameViews[$("new-game").value] || {};
  $("new-options").replaceChildren(...(gv.options || []).map((o) => {
    const label = document.createElement("label");
    label.className = "option-field";
    const input = document.createElement("input");
    input.type = o.type === "bool" ? "checkbox" : "text";
    input.dataset.key = o.key;
    input.dataset.type = o.type;
    if (o.type === "bool") input.checked = !!o.default;
    label.append(input, ` ${o.label}`);
    if (o.hint) { const s = document.createElement("small"); s.textContent = ` ${o.hint}`; label.append(s); }
    return label;
  }));
}

async function startGame(event) {
  event.preventDefault();
  const players = [...document.querySelectorAll("#new-players input")].map((i) => i.value.trim()).filter(Boolean);
  const options = {};
  for (const input of document.querySelectorAll("#new-options input")) {
    options[input.dataset.key] = input.dataset.type === "bool" ? input.checked : input.value;
  }
  try {
    await call("/api/games", { game: $("new-game").value, players, options });
    $("dlg-new").close();
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

async function gamesDialog() {
  const data = await (await fetch("/api/games")).json();
  $("games-list").replaceChildren(...data.games.map((g) => {
    const tr = document.createElement("tr");
    const status = g.finished ? g.summary : (g.id === data.current ? "being played" : "unfinished");
    tr.innerHTML = `<td>#${g.id}</td><td></td><td></td><td></td>`;
    tr.children[1].textContent = `${g.game}: ${g.players.join(", ")}`;
    tr.children[2].textContent = `${status} · ${g.entries} inputs · ${g.created.slice(0, 16).replace("T", " ")}`;
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = "Open";
    open.onclick = async () => { await call(`/api/games/${g.id}/open`); $("dlg-games").close(); };
    const exp = document.createElement("a");
    exp.href = `/api/games/${g.id}/record`;
    exp.textContent = "Export";
    exp.className = "button secondary";
    tr.children[3].append(open, exp);
    return tr;
  }));
  $("dlg-games").showModal();
}

// ---- wiring --------------------------------------------------------------------------------
function holdable(button, press) {
  let down = 0;
  button.addEventListener("pointerdown", () => { down = performance.now(); });
  button.addEventListener("pointerup", () => {
    const hold = down ? (performance.now() - down) / 1000 : 0;
    down = 0;
    press(hold);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  updatePinButton(false);
  if (store.getItem("pin")) {
    fetch("/api/pin", { method: "POST", headers: { "X-Table-Pin": store.getItem("pin") } })
      .then((r) => updatePinButton(r.ok));
  }
  $("btn-pin").onclick = () => askPin("");
  $("btn-new").onclick = newGameDialog;
  $("new-add").onclick = () => addPlayerField("");
  $("form-new").addEventListener("submit", (e) => {
    if (e.submitter && e.submitter.value === "ok") startGame(e);
  });
  $("btn-games").onclick = gamesDialog;
  $("import-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      const res = await call("/api/games/import", await file.text(), { raw: true });
      await call(`/api/games/${res.id}/open`);
      $("dlg-games").close();
    } catch (err) { $("games-error").textContent = err.message; }
    e.target.value = "";
  };
  $("btn-clear").onclick = () => { entered = []; if (view && view.game) drawEntered(view.game.awaiting.dice); };
  $("btn-roll").onclick = async () => {
    const dice = entered.slice();
    const action = { type: "roll", dice };
    if (rollFor !== null) action.player = rollFor;
    await submit(action);
    entered = [];
    if (view && view.game && view.game.awaiting.dice) drawEntered(view.game.awaiting.dice);
  };
  $("btn-sim").onclick = () => call("/api/camera/roll").catch(() => {});
  $("btn-undo").onclick = () => {
    const g = view && view.game;
    if (g && g.undo_warns && !window.confirm(`Undo a roll everyone saw?\n${g.undo_label}`)) return;
    call("/api/undo").catch(() => {});
  };
  $("btn-redo").onclick = () => call("/api/redo").catch(() => {});
  for (const b of document.querySelectorAll("[data-button]")) {
    holdable(b, (hold) => call(`/api/buttons/${b.dataset.button}`, { hold: hold > 0.8 ? hold : 0 }).catch(() => {}));
  }
  connect();
});
