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
  // the session the right PIN opened, never the PIN itself (see companion/table/pin_sessions.py)
  const headers = { "X-Table-Session": store.getItem("session") || "", "X-Device": deviceId };
  if (!raw) headers["Content-Type"] = "application/json";
  const res = await fetch(path, {
    method, headers, body: raw ? body : JSON.stringify(body || {}),
  });
  const data = await res.json().catch(() => ({ error: res.statusText }));
  // an input the rules could not even read: a sentence for the players, never the field at fault
  if (data.kind === "malformed") data.error = _("The tablet sent something this game cannot read; nothing was changed. Reload the page and try again.");
  if (res.status === 403 && retry) {
    if (await askPin(data.error)) return call(path, body, { raw, retry: false, method, quiet });
    throw new Error(data.error);
  }
  if (!res.ok) {
    if (!quiet) toast(data.error || _("The companion did not accept that ({status}); try again.", { status: res.status }));
    throw new Error(data.error || _("The companion did not accept that ({status}); try again.", { status: res.status }));
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

// The event stream: EventSource retries by itself only after some errors (never after a 503 when all
// stream slots are taken), so every error closes it and a new one is made after a growing pause.
let source = null;
let retryDelay = 1000;
let retryTimer = null;
let offline = false;
function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = new EventSource("/api/events");
  window.companionStream = source;  // for a look from the console (or a test) at the live stream
  source.addEventListener("view", (e) => {
    retryDelay = 1000;
    setOffline(false);
    render(JSON.parse(e.data));
  });
  source.onerror = () => {
    source.close();
    source = null;
    setOffline(true);
    retryTimer = setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 30000) * (0.8 + Math.random() * 0.4);
  };
}
window.addEventListener("online", () => { retryDelay = 1000; connect(); });

function setOffline(yes) {
  offline = yes;
  $("conn").textContent = yes ? _("reconnecting…") : _("live");
  $("conn").className = yes ? "pill warn" : "pill ok";
  $("offline").hidden = !yes;
  document.body.classList.toggle("is-offline", yes);
  if (yes) {
    for (const el of document.querySelectorAll("main button, main input, main select")) el.disabled = true;
  } else if (view) {
    render(view);
  }
}

// ---- PIN -------------------------------------------------------------------------------------
function askPin(message) {
  return new Promise((resolve) => {
    const dlg = $("dlg-pin");
    $("pin-error").textContent = store.getItem("session") ? (message || "") : "";
    $("pin-input").value = "";
    dlg.onclose = async () => {
      if (dlg.returnValue !== "ok") return resolve(false);
      const ok = await fetch("/api/pin", { method: "POST", headers: { "X-Table-Pin": $("pin-input").value } });
      $("pin-input").value = "";
      updatePinButton(ok.ok);
      if (ok.ok) store.setItem("session", (await ok.json()).session);
      else {
        store.removeItem("session");
        // too many wrong PINs from this tablet: say how to get back in, not "wrong PIN" again
        if (ok.status === 429) toast(_("Too many wrong PINs from this tablet: wait a while, or hold the reread button at the table to unlock."));
        else toast(_("That PIN is not this table's PIN."));
      }
      resolve(ok.ok);
    };
    dlg.showModal();
  });
}

async function restoreBackup() {
  try {
    const done = await call("/api/journal/recover", {});
    toast(_("Restored {name}.", { name: done.restored || "" }));
  } catch (e) { /* the companion's reason is already shown */ }
}

async function changePin() {
  let done;
  try {
    done = await call("/api/pin/change", { old: $("pin-old").value, new: $("pin-new").value }, { retry: false });
  } catch (e) { return; } // the companion's reason is already shown
  $("pin-old").value = $("pin-new").value = "";
  store.setItem("session", done.session);  // the old PIN's sessions, this tablet's too, have ended
  updatePinButton(true);
  $("dlg-pin").close("cancel");
  toast(_("The table PIN is changed; tell the other players."));
}

function updatePinButton(unlocked) {
  $("btn-pin").textContent = unlocked ? _("Unlocked") : _("Enter PIN");
}

// ---- rendering -----------------------------------------------------------------------------
window.dieEl = dieEl;
function dieEl(face, extra = "") {
  const d = document.createElement("span");
  d.className = `die ${extra}`;
  if (face === "worm") { d.append(wormIcon()); d.classList.add("worm"); d.title = _("worm (counts 5)"); }
  else { d.textContent = face; }
  return d;
}

function wormIcon() {
  const w = document.createElement("span");
  w.className = "wormicon";
  w.setAttribute("role", "img");
  w.setAttribute("aria-label", _("worm"));
  return w;
}
window.wormIcon = wormIcon;

window.rerender = () => { if (view) render(view); };
window.currentGame = () => view && view.game;


// The device pill shows the rig's status words (data the page also tests, e.g. "simulated") in the
// page's language; anything else (an error from the camera) is shown as it came.
const DEVICE_WORDS = {
  camera: _("camera"), buttons: _("buttons"), lights: _("lights"), simulated: _("simulated"),
  gpio: "GPIO", absent: _("absent"), starting: _("starting"), ok: _("ok"), lost: _("lost"),
  "none (manual entry)": _("none (manual entry)"), "off (safe mode)": _("off (safe mode)"), auto: _("auto"),
};
function deviceWord(word) { return DEVICE_WORDS[word] || word; }

function render(v) {
  view = v;
  document.body.dataset.version = String(v.version);  // lets a test (or a curious player) see the page caught up
  const g = v.game;
  for (const el of document.querySelectorAll("main button, main input, main select")) el.disabled = false;
  const devices = v.status.devices || {};
  const parts = Object.entries(devices).map(([k, s]) => `${deviceWord(k)}: ${String(s).split(": ").map(deviceWord).join(": ")}`);
  $("devices").textContent = parts.join(" · ");
  $("devices").hidden = parts.length === 0;
  $("mock-panel").hidden = devices.buttons !== "simulated";
  const banner = v.status.banner || v.status.reopen || v.status.pin;
  const notice = v.status.notice;
  if (render.noticeAt === undefined) {
    render.noticeAt = notice ? notice.at : null;  // an old notice is not news on (re)loading the page
  } else if (notice && notice.at !== render.noticeAt) {
    toast(notice.text);
    render.noticeAt = notice.at;
  }
  $("banner").hidden = !banner;
  $("banner").textContent = banner || "";
  $("restore").hidden = !v.status.recovery;  // safe mode on a damaged journal, with a good backup
  if (window.Calibration) window.Calibration.render(v.status.calibration);
  document.body.dataset.game = g ? g.name : "";
  if (!g) {
    $("title").textContent = _("Vegas Table Companion");
    $("waiting").textContent = _("No game yet. Press “New game” to start one.");
    for (const id of ["options", "options-late", "board", "scores", "last-event"]) $(id).replaceChildren();
    $("dice-entry").hidden = true;
    $("outcome").hidden = true;
    $("summary-bar").hidden = true;
    if (window.Odds) window.Odds.update(null);
    $("btn-undo").disabled = $("btn-redo").disabled = true;
    $("btn-history").disabled = true;
    if (window.Tablet) window.Tablet.keepAwake(false);
    if (offline) setOffline(true);
    return;
  }
  $("btn-history").disabled = false;
  if (window.Tablet) {
    window.Tablet.keepAwake(!g.outcome);
    window.Tablet.turn(g.outcome ? null : `${g.id}:${g.awaiting.players.join(",")}`);
  }
  $("title").textContent = _("{game} · game {id}", { game: g.title, id: g.id });
  const aw = g.awaiting;
  const who = aw.players.map((i) => g.players[i]).join(", ");
  drawPrompt(g, aw);
  $("waiting").dataset.player = who;
  $("outcome").hidden = !g.outcome;
  $("outcome").textContent = g.outcome ? g.outcome.text : "";
  renderScores(g);

  const opts = $("options");
  $("options-late").replaceChildren();
  if (aw.kind === "secret") {
    // a hidden choice: one button per player still to choose; their options open only for them
    opts.replaceChildren(...aw.players.map((seat) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option";
      b.dataset.testid = `secret-${seat}`;
      b.textContent = _("{name}: choose in secret", { name: g.players[seat] });
      b.onclick = () => secretDialog(g.players[seat], aw.options.filter((o) => o.action.player === seat));
      return b;
    }));
  } else if (aw.kind === "card" && aw.card && !aw.options.length) {
    opts.replaceChildren(cardPicker(aw.card, g));
  } else if (aw.kind === "card") {
    // a banknote or card to enter: every value at once, in a compact grid (never folded away)
    const grid = document.createElement("div");
    grid.className = "card-grid";
    grid.dataset.testid = "card-grid";
    grid.append(...aw.options.map((o) => optionButton(o, g)));
    opts.replaceChildren(grid);
  } else {
    const all = optionButtons(aw.options, g);
    // a move that throws the turn away sits apart, below the dice pad, not beside the faces a thumb reaches for
    const apart = aw.dice ? all.filter((el) => el.classList.contains("risky")) : [];
    opts.replaceChildren(...all.filter((el) => !apart.includes(el)));
    $("options-late").replaceChildren(...apart);
  }

  renderDiceEntry(g, aw, devices);
  const gv = GameViews[g.name];
  const board = $("board");
  if (gv && gv.render) gv.render(g.scoreboard, board, g);
  else board.textContent = JSON.stringify(g.scoreboard);

  $("btn-undo").disabled = !g.can_undo;
  $("btn-undo").title = g.undo_label ? _("Undo: {what}", { what: g.undo_label }) : "";
  $("btn-redo").disabled = !g.can_redo;
  const last = g.log.length ? g.log[g.log.length - 1] : null;
  $("last-event").textContent = last ? last.text : "";
  if (window.Summary) window.Summary.update(g);
  if (window.Odds) window.Odds.update(g);
  if (offline) setOffline(true);
}

// The prompt, with the name of whoever must act now picked out (it is the first thing to read).
function drawPrompt(g, aw) {
  const el = $("waiting");
  // at the end the outcome box below says who won: the prompt does not say it a second time
  const text = g.outcome ? _("The game is over.") : aw.prompt;
  const names = aw.players.map((i) => g.players[i]);
  el.replaceChildren();
  let rest = text;
  for (const name of names) {
    const at = rest.indexOf(name);
    if (at < 0) continue;
    el.append(rest.slice(0, at));
    const b = document.createElement("strong");
    b.className = "prompt-name";
    b.textContent = name;
    el.append(b);
    rest = rest.slice(at + name.length);
  }
  el.append(rest);
}

// ---- the score strip: every player, big digits, the one to act now unmistakable -----------
const COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "black", "white"];
function seatColours(g) {
  const sb = g.scoreboard || {};
  const mine = JSON.parse(store.getItem(`colours:${g.id}`) || "null");
  return g.players.map((_n, i) => (sb.players && sb.players[i] && sb.players[i].colour) || (mine && mine[i]) || COLOURS[i % COLOURS.length]);
}
window.seatColours = seatColours;

// Initials that tell the players apart ("An", "Al" for Anna and Alex), shown on every colour swatch.
function initials(names) {
  return names.map((n, i) => {
    const clash = names.some((m, j) => j !== i && m.slice(0, 1).toUpperCase() === n.slice(0, 1).toUpperCase());
    return clash ? n.slice(0, 2) : n.slice(0, 1).toUpperCase();
  });
}
window.initials = initials;

function badge(colour, initial) {
  const b = document.createElement("span");
  b.className = `badge c-${colour}`;
  b.textContent = initial;
  b.setAttribute("aria-hidden", "true");
  return b;
}
window.badge = badge;

function renderScores(g) {
  const gv = GameViews[g.name] || {};
  const rows = gv.scores ? gv.scores(g.scoreboard, g) : g.players.map((name) => ({ values: [] }));
  const colours = seatColours(g);
  const marks = initials(g.players);
  const acting = new Set(g.awaiting.players);
  const winners = new Set(g.outcome ? g.outcome.winners : []);
  $("scores").dataset.count = String(g.players.length);
  $("scores").replaceChildren(...g.players.map((name, i) => {
    const row = rows[i] || { values: [] };
    const card = document.createElement("div");
    const current = !g.outcome && acting.has(i);
    card.className = "score-card" + (current ? " current" : "") + (winners.has(i) ? " winner" : "");
    card.dataset.testid = `score-card-${i}`;
    card.dataset.seat = String(i);
    const head = document.createElement("div");
    head.className = "score-name";
    const label = document.createElement("span");
    label.className = "score-player";
    label.textContent = name;
    head.append(badge(colours[i], marks[i]), label);
    if (current) {
      const now = document.createElement("span");
      now.className = "now";
      now.textContent = _("to play");
      head.append(now);
    }
    if (winners.has(i)) {
      const won = document.createElement("span");
      won.className = "now";
      won.textContent = _("winner");
      head.append(won);
    }
    const nums = document.createElement("div");
    nums.className = "score-values";
    for (const val of row.values) {
      const box = document.createElement("span");
      box.className = "score-value";
      const big = document.createElement("span");
      big.className = "big";
      big.textContent = val.text;
      if (val.testid) big.dataset.testid = val.testid;
      const unit = document.createElement("span");
      unit.className = "unit";
      unit.textContent = val.unit || "";
      box.append(big, unit);
      nums.append(box);
    }
    if (row.extra) nums.append(row.extra);
    card.append(head, nums);
    if (row.detail) {
      const d = document.createElement("div");
      d.className = "score-detail";
      d.textContent = row.detail;
      card.append(d);
    }
    return card;
  }));
}

const ACTION_NAMES = { build: _("Build"), sprawl: _("Sprawl"), remodel: _("Remodel"), reorganize: _("Reorganize"),
  gamble: _("Gamble"), trade: _("Trade"), take: _("Keep"), claim: _("Take a tile"), place: _("Place"), buy: _("Buy a throw"),
  challenge: _("Challenge"), pass: _("Pass"), note: _("Banknote"), card: _("Card"), arrange: _("Arrange the dice"),
  move_die: _("Move a die"), give_up_lot: _("Give up a lot"), choose: _("Choose a table"), start: _("First player") };

function optionButton(o, g) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "option" + (o.recommended ? " recommended" : "") + (o.highlighted ? " highlighted" : "");
  b.textContent = o.label;
  const gv = (g && GameViews[g.name]) || {};
  if (gv.risky && gv.risky(o)) {
    // a move that throws the turn away asks for a second tap (no hover, no accidental brush)
    b.classList.add("risky");
    b.onclick = () => {
      if (b.dataset.armed) { submit(o.action); return; }
      b.dataset.armed = "1";
      b.textContent = _("Tap again to confirm: {what}", { what: o.label });
      setTimeout(() => { if (b.isConnected) { delete b.dataset.armed; b.textContent = o.label; } }, 4000);
    };
  } else {
    b.onclick = () => submit(o.action);
  }
  return b;
}

// Few options: one big button each. Many (a Lords of Vegas turn): the usual ones first, the rest
// folded by kind of action, and a board that marks a lot filters them (game.focus).
function optionButtons(options, g) {
  const gv = GameViews[g.name] || {};
  const focus = gv.focus;
  // a lot tapped on the board narrows the moves to that lot, never a choice about something else
  // (a lay-off, a roll-off): with no move on the lot, all are shown
  const onLot = focus ? options.filter((o) => JSON.stringify(o.action).includes(`"${focus}"`)) : [];
  const shown = onLot.length ? options.filter((o) => o.recommended || onLot.includes(o)) : options;
  const button = (o) => optionButton(o, g);
  const risky = shown.filter((o) => gv.risky && gv.risky(o));
  const safe = shown.filter((o) => !risky.includes(o));
  const tail = risky.map(button);
  const note = gv.note ? gv.note(g.scoreboard, g) : "";
  if (note) {
    const p = document.createElement("p");
    p.className = "prompt-note";
    p.dataset.testid = "prompt-note";
    p.textContent = note;
    tail.unshift(p);
  }
  if (safe.length <= 8) return [...safe.map(button), ...tail];
  const groups = new Map();
  const out = [];
  for (const o of safe) {
    if (o.recommended || o.highlighted) { out.push(button(o)); continue; }
    const kind = o.action.type;
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(o);
  }
  for (const [kind, list] of groups) {
    if (list.length === 1) { out.push(button(list[0])); continue; }
    const details = document.createElement("details");
    details.className = "option-group";
    details.dataset.kind = kind;
    const summary = document.createElement("summary");
    summary.textContent = _("{action} ({n})", { action: ACTION_NAMES[kind] || _("Other moves"), n: list.length });
    const box = document.createElement("div");
    box.className = "options";
    box.append(...list.map(button));
    details.append(summary, box);
    details.open = openGroups.has(kind);
    details.ontoggle = () => { if (details.open) openGroups.add(kind); else openGroups.delete(kind); };
    out.push(details);
  }
  return [...out, ...tail];
}
const openGroups = new Set();

// The roll as the rules read it: a player is named only when plain dice are entered one player at a
// time (Cincinnati); coloured dice already say whose they are.
function rollAction(dice) {
  const action = { type: "roll", dice };
  const spec = view && view.game && view.game.awaiting.dice;
  if (rollFor !== null && spec && !spec.colours.length) action.player = rollFor;
  return action;
}

// A card of a physical deck, entered by hand: one button per card still in the deck, grouped by the
// block the card names (Lords of Vegas lots A1..F12) or in one row.
function cardPicker(card, g) {
  const gv = GameViews[g.name] || {};
  const label = gv.cardLabel || ((v) => String(v));
  const box = document.createElement("div");
  box.className = "card-picker";
  box.dataset.testid = "card-picker";
  const groups = new Map();
  for (const v of card.values) {
    const key = gv.cardGroup ? gv.cardGroup(v) : "";
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(v);
  }
  for (const [key, values] of groups) {
    const row = document.createElement("div");
    row.className = "card-row";
    if (key) {
      const name = document.createElement("span");
      name.className = "card-group";
      name.textContent = key;
      row.append(name);
    }
    for (const v of values) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "card-button";
      b.dataset.card = String(v);
      b.textContent = label(v);
      b.onclick = () => submit({ type: "card", card: v });
      row.append(b);
    }
    box.append(row);
  }
  return box;
}

function secretDialog(name, options) {
  const dlg = $("dlg-secret");
  $("secret-title").textContent = _("{name}, only you look now", { name });
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
  box.dataset.count = spec ? String(spec.count) : "";
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
      row.dataset.colour = colour;
      row.dataset.count = String(n);
      const name = document.createElement("span");
      name.className = "colour-name";
      const owner = ((g.scoreboard && g.scoreboard.players) || []).find((p) => p.colour === colour);
      name.textContent = owner ? _("{name} ×{n}", { name: owner.name, n }) : _("{colour} ×{n}", { colour: COLOUR_NAMES[colour] || colour, n });
      if (owner) row.dataset.player = owner.name;
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
  // Several players throw at once. Coloured dice say whose they are (Lords of Vegas: one roll for all);
  // plain dice (Cincinnati) are entered one player at a time.
  const whose = $("whose");
  if (aw.players.length > 1 && !spec.colours.length) {
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
      use.textContent = _("Correct it");
      use.onclick = () => {
        entered = g.reading.slice(0, spec.count).map((d) => (spec.colours.length ? { face: d.face, colour: d.colour } : d.face));
        drawEntered(spec);
      };
    } else {
      use.className = "primary";
      use.dataset.testid = "use-reading";
      use.textContent = _("Use camera reading");
      use.onclick = () => submit(rollAction(g.reading));
    }
    const label = document.createElement("span");
    label.textContent = _("Camera read:") + " ";
    const photo = document.createElement("img");
    photo.className = "reading-photo";
    photo.alt = _("What the camera read");
    photo.src = `/api/camera/frame.jpg?v=${view.version}`;
    photo.onerror = () => photo.remove();
    photo.onclick = () => photo.classList.toggle("large");
    reading.replaceChildren(photo, label, ...g.reading.map((d) => dieEl(d.face, d.colour || "")), use);
    if (g.reading_note) {
      // short or unsure: the picture is shown large at once, with where the camera looked, so the
      // table sees the die it missed or doubts
      photo.classList.add("large", "short");
      photo.dataset.testid = "reading-photo";
      const note = document.createElement("small");
      note.textContent = g.reading_note;
      const legend = document.createElement("small");
      legend.className = "reading-legend";
      legend.dataset.testid = "reading-legend";
      legend.textContent = _("Green: read. Amber: unsure. Grey circle: the camera looked there and found no die.");
      reading.append(note, legend);
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
  count.textContent = ngettext("{k} of {n} die", "{k} of {n} dice", spec.count, { k: entered.length });
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
  if (view && view.game) select.value = view.game.name;
  const players = $("new-players");
  const g = view && view.game;
  const previous = (g && g.players) || [_("Player 1"), _("Player 2")];
  const colours = g ? seatColours(g) : [];
  players.replaceChildren();
  previous.forEach((name, i) => addPlayerField(name, colours[i]));
  select.onchange = () => { drawOptions(); drawColours(); drawFirst(); };
  drawOptions();
  drawColours();
  drawFirst();
  $("new-error").textContent = "";
  $("dlg-new").showModal();
}

function gameColours() {
  const gv = GameViews[$("new-game").value] || {};
  return gv.colours || COLOURS;
}

function addPlayerField(name, colour) {
  const wrap = document.createElement("div");
  wrap.className = "row player-field";
  const input = document.createElement("input");
  input.value = typeof name === "string" ? name : "";
  input.placeholder = _("Player name");
  input.setAttribute("aria-label", _("Player name"));
  input.dataset.testid = "player-name";
  input.oninput = drawFirst;
  const pick = document.createElement("select");
  pick.className = "colour-pick";
  pick.dataset.testid = "player-colour";
  pick.setAttribute("aria-label", _("Colour"));
  pick.dataset.want = colour || "";
  pick.onchange = () => { pick.dataset.want = pick.value; };
  const del = document.createElement("button");
  del.type = "button";
  del.className = "secondary";
  del.textContent = "✕";
  del.setAttribute("aria-label", _("Remove this player"));
  del.onclick = () => { wrap.remove(); drawFirst(); };
  wrap.append(input, pick, del);
  $("new-players").append(wrap);
  drawColours();
  drawFirst();
}

const COLOUR_NAMES = { red: _("red"), blue: _("blue"), green: _("green"), yellow: _("yellow"), purple: _("purple"),
  orange: _("orange"), black: _("black"), white: _("white") };
function drawColours() {
  const choices = gameColours();
  const picks = [...document.querySelectorAll("#new-players select.colour-pick")];
  const taken = new Set();
  picks.forEach((pick) => {
    let want = pick.dataset.want;
    if (!choices.includes(want) || taken.has(want)) want = choices.find((c) => !taken.has(c)) || choices[0];
    taken.add(want);
    pick.replaceChildren(...choices.map((c) => {
      const o = document.createElement("option");
      o.value = c;
      o.textContent = COLOUR_NAMES[c] || c;
      return o;
    }));
    pick.value = want;
    pick.dataset.want = want;
  });
}

function drawFirst() {
  const gv = GameViews[$("new-game").value] || {};
  const names = [...document.querySelectorAll("#new-players input")].map((i) => i.value.trim()).filter(Boolean);
  const sel = $("new-first");
  const was = sel.value;
  sel.replaceChildren(...names.map((n, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = n;
    return o;
  }));
  if (was && Number(was) < names.length) sel.value = was;
  // Lords of Vegas: a roll-off in the game decides who starts
  $("new-first-label").hidden = !!gv.firstByRollOff;
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
    input.dataset.testid = `option-${o.key}`;
    if (o.type === "bool") input.checked = !!o.default;
    label.append(input, ` ${o.label}`);
    if (o.hint) { const s = document.createElement("small"); s.textContent = ` ${o.hint}`; label.append(s); }
    return label;
  }));
}

async function startGame(event) {
  event.preventDefault();
  const rows = [...document.querySelectorAll("#new-players .player-field")]
    .map((r) => ({ name: r.querySelector("input").value.trim(), colour: r.querySelector("select").value }))
    .filter((r) => r.name);
  const name = $("new-game").value;
  const gv = GameViews[name] || {};
  const options = {};
  for (const input of document.querySelectorAll("#new-options input")) {
    options[input.dataset.key] = input.dataset.type === "bool" ? input.checked : input.value;
  }
  // the first player sits first: the seating goes round from them
  const first = gv.firstByRollOff ? 0 : Math.min(Number($("new-first").value) || 0, Math.max(rows.length - 1, 0));
  const seated = rows.slice(first).concat(rows.slice(0, first));
  if (gv.colourOption) options.colours = seated.map((r) => r.colour);
  try {
    const odds = window.Odds ? window.Odds.setupChoice() : undefined;
    const res = await call("/api/games", { game: name, players: seated.map((r) => r.name), options, odds }, { quiet: true });
    store.setItem(`colours:${res.id}`, JSON.stringify(seated.map((r) => r.colour)));
    $("dlg-new").close();
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

async function rematch() {
  const g = view && view.game;
  if (!g) return;
  const colours = seatColours(g);
  try {
    const res = await call("/api/games", { game: g.name, players: g.players, options: g.options, odds: g.odds });
    store.setItem(`colours:${res.id}`, JSON.stringify(colours));
    $("dlg-end").close();
  } catch (e) { /* the toast says why */ }
}
window.rematch = rematch;

async function gamesDialog() {
  const data = await (await fetch("/api/games")).json();
  $("games-list").replaceChildren(...data.games.map((g) => {
    const tr = document.createElement("tr");
    const status = g.finished ? g.summary : (g.id === data.current ? _("being played") : _("unfinished"));
    const cells = [0, 1, 2, 3].map(() => document.createElement("td"));
    cells[0].textContent = `#${g.id}`;
    cells[1].textContent = `${(GameViews[g.game] && GameViews[g.game].title) || g.game}: ${g.players.join(", ")}`;
    cells[2].textContent = `${status} · ${ngettext("{n} input", "{n} inputs", g.entries)} · ${g.created.slice(0, 16).replace("T", " ")}`;
    const open = document.createElement("button");
    open.type = "button";
    open.className = "primary";
    open.textContent = _("Open");
    open.onclick = async () => { await call(`/api/games/${g.id}/open`); $("dlg-games").close(); };
    const exp = document.createElement("a");
    exp.href = `/api/games/${g.id}/record`;
    exp.textContent = _("Export");
    exp.className = "button secondary";
    cells[3].className = "games-actions";
    cells[3].append(open, exp);
    tr.append(...cells);
    return tr;
  }));
  $("dlg-games").showModal();
}

// ---- the whole game's history: searchable, by player, undone entries struck through ---------
let history = null;
async function historyDialog() {
  const g = view && view.game;
  if (!g) return;
  try {
    history = await (await fetch(`/api/games/${g.id}/history`)).json();
  } catch (e) { toast(_("The history could not be loaded; try again.")); return; }
  const sel = $("history-player");
  const all = document.createElement("option");
  all.value = "";
  all.textContent = _("Everyone");
  sel.replaceChildren(all, ...g.players.map((n, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = n;
    return o;
  }));
  drawHistory();
  $("dlg-history").showModal();
}

function drawHistory() {
  if (!history) return;
  const text = $("history-search").value.trim().toLowerCase();
  const seat = $("history-player").value;
  const names = (view && view.game && view.game.players) || [];
  const showUndone = $("history-undone").checked;
  const items = history.entries.filter((e) => {
    if (e.undone && !showUndone) return false;
    if (seat !== "" && !e.players.includes(Number(seat)) && !(names[seat] && e.text.includes(names[seat]))) return false;
    return !text || e.text.toLowerCase().includes(text);
  });
  $("log").replaceChildren(...items.slice().reverse().map((e) => {
    const li = document.createElement("li");
    li.className = `log-${e.kind}` + (e.undone ? " undone" : "");
    const body = e.undone ? document.createElement("s") : document.createElement("span");
    body.textContent = e.text;
    li.append(body);
    if (e.undone) {
      const tag = document.createElement("span");
      tag.className = "undone-tag";
      tag.textContent = _("undone");
      li.append(" ", tag);
    }
    return li;
  }));
  if (!items.length) {
    const li = document.createElement("li");
    li.textContent = _("Nothing matches.");
    $("log").append(li);
  }
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
  store.removeItem("pin");  // kept by an older page: the PIN itself is never kept now
  if (store.getItem("session")) {
    fetch("/api/pin", { method: "POST", headers: { "X-Table-Session": store.getItem("session") } })
      .then((r) => { updatePinButton(r.ok); if (!r.ok) store.removeItem("session"); });
  }
  $("btn-pin").onclick = () => askPin("");
  $("pin-change-ok").onclick = changePin;
  $("btn-restore").onclick = restoreBackup;
  $("btn-new").onclick = newGameDialog;
  $("new-add").onclick = () => addPlayerField("", "");
  $("form-new").addEventListener("submit", (e) => {
    if (e.submitter && e.submitter.value === "ok") startGame(e);
  });
  $("btn-games").onclick = gamesDialog;
  $("btn-history").onclick = historyDialog;
  for (const id of ["history-search", "history-player", "history-undone"]) $(id).addEventListener("input", drawHistory);
  $("history-undone").addEventListener("change", drawHistory);
  $("btn-rematch").onclick = rematch;
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
    const key = renderDiceEntry.key;
    const taken = await submit(rollAction(entered.slice()));
    // Accepted: the pad empties, unless the next roll's pad is already up (its view came first) and may
    // hold dice tapped since. Refused: the dice stay on the pad to be corrected.
    if (!taken || renderDiceEntry.key !== key) return;
    entered = [];
    if (view && view.game && view.game.awaiting.dice) drawEntered(view.game.awaiting.dice);
  };
  $("btn-sim").onclick = () => call("/api/camera/roll").catch(() => {});
  $("btn-undo").onclick = () => {
    const g = view && view.game;
    if (g && g.undo_warns && !window.confirm(_("Undo a roll everyone saw?\n{what}", { what: g.undo_label }))) return;
    call("/api/undo").catch(() => {});
  };
  $("btn-redo").onclick = () => call("/api/redo").catch(() => {});
  for (const b of document.querySelectorAll("[data-button]")) {
    holdable(b, (hold) => call(`/api/buttons/${b.dataset.button}`, { hold: hold > 0.8 ? hold : 0 }).catch(() => {}));
  }
  connect();
});
