// The new-game dialog (the game, the players in seating order with a colour each, who plays first,
// the game's options) and the rematch from the results.
import { call } from "./api.js";
import { keepUsualColours, offerKnownPlayers, usualColour } from "./known-players.js";
import { COLOURS, COLOUR_NAMES, keepColours, seatColours } from "./pieces.js";
import { latestView } from "./state.js";

const GameViews = window.GameViews || (window.GameViews = {});
const $ = (id) => document.getElementById(id);

function newGameDialog() {
  const view = latestView();
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
  offerKnownPlayers();
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
  input.setAttribute("list", "known-players");
  input.oninput = drawFirst;
  const pick = document.createElement("select");
  pick.className = "colour-pick";
  pick.dataset.testid = "player-colour";
  pick.setAttribute("aria-label", _("Colour"));
  pick.dataset.want = colour || "";
  pick.onchange = () => { pick.dataset.want = pick.value; };
  input.onchange = () => {  // a known player picked from the list: their usual colour, if it is free
    const usual = usualColour(input.value);
    if (usual) { pick.dataset.want = usual; drawColours(); }
  };
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

// Each player keeps the colour they want while it is free in the chosen game; the others get the first free one.
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
    const res = await call("/api/games", {
      game: name, players: seated.map((r) => r.name), options, odds, colours: seated.map((r) => r.colour),
    }, { quiet: true });
    keepColours(res.id, seated.map((r) => r.colour));
    keepUsualColours(seated);
    $("dlg-new").close();
  } catch (e) {
    $("new-error").textContent = e.message;
  }
}

// The same players in the same seats, colours, options and odds: a new game at once.
export async function rematch() {
  const view = latestView();
  const g = view && view.game;
  if (!g) return;
  const colours = seatColours(g);
  try {
    const res = await call("/api/games", { game: g.name, players: g.players, options: g.options, odds: g.odds, colours });
    keepColours(res.id, colours);
    $("dlg-end").close();
  } catch (e) { /* the toast says why */ }
}

export function wireNewGame() {
  $("btn-new").onclick = newGameDialog;
  $("new-add").onclick = () => addPlayerField("", "");
  $("form-new").addEventListener("submit", (e) => {
    if (e.submitter && e.submitter.value === "ok") startGame(e);
  });
  $("btn-rematch").onclick = rematch;
}
