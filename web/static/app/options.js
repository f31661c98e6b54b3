// The moves on offer: one button per option (a risky one asks for a second tap), long lists folded by
// kind, a card of a physical deck to enter, and a hidden choice each player makes alone.
import { submit } from "./api.js";

const GameViews = window.GameViews || (window.GameViews = {});
const $ = (id) => document.getElementById(id);

// The kinds a folded group is named after (Lords of Vegas turns have dozens of options).
const ACTION_NAMES = { build: _("Build"), sprawl: _("Sprawl"), remodel: _("Remodel"), reorganize: _("Reorganize"),
  gamble: _("Gamble"), trade: _("Trade"), take: _("Keep"), claim: _("Take a tile"), place: _("Place"), buy: _("Buy a throw"),
  challenge: _("Challenge"), pass: _("Pass"), note: _("Banknote"), card: _("Card"), arrange: _("Arrange the dice"),
  move_die: _("Move a die"), give_up_lot: _("Give up a lot"), choose: _("Choose a table"), start: _("First player") };
const openGroups = new Set();  // the folded groups a player opened stay open from one view to the next

// Above the dice pad go the options; #options-late, below it, takes the moves that throw the turn away.
export function renderOptions(g) {
  const opts = $("options");
  $("options-late").replaceChildren();
  if (!g) { opts.replaceChildren(); return; }
  const aw = g.awaiting;
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
}

// A button that acts on a second tap within four seconds (no hover, no accidental brush).
function armed(b, label, act) {
  b.onclick = () => {
    if (b.dataset.armed) { act(); return; }
    b.dataset.armed = "1";
    b.textContent = _("Tap again to confirm: {what}", { what: label });
    setTimeout(() => { if (b.isConnected) { delete b.dataset.armed; b.textContent = label; } }, 4000);
  };
}

function optionButton(o, g) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "option" + (o.recommended ? " recommended" : "") + (o.highlighted ? " highlighted" : "");
  b.textContent = o.label;
  const gv = (g && GameViews[g.name]) || {};
  if (gv.risky && gv.risky(o)) {
    // a move that throws the turn away asks for a second tap (no hover, no accidental brush)
    b.classList.add("risky");
    armed(b, o.label, () => submit(o.action));
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

// A card of a physical deck, entered by hand: one button per card still in the deck, grouped by the
// block the card names (Lords of Vegas lots A1..F12) or in one row.
function cardPicker(card, g) {
  const gv = GameViews[g.name] || {};
  const label = gv.cardLabel || ((v) => String(v));
  const box = document.createElement("div");
  box.className = "card-picker";
  box.dataset.testid = "card-picker";
  const groups = new Map();
  for (const v of card.values.filter((x) => !gv.cardOffered || gv.cardOffered(x, g))) {
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
    const note = gv.cardGroupNote ? gv.cardGroupNote(key, g) : "";
    if (note) {
      row.classList.add("noted");
      row.dataset.testid = `card-note-${key}`;
    }
    for (const v of values) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "card-button";
      b.dataset.card = String(v);
      b.textContent = label(v);
      if (gv.cardConfirm && gv.cardConfirm(v)) {
        b.classList.add("wide");
        b.dataset.confirm = "1";
        armed(b, label(v), () => submit({ type: "card", card: v }));
      } else {
        b.onclick = () => submit({ type: "card", card: v });
      }
      row.append(b);
    }
    if (note) row.append(Object.assign(document.createElement("span"), { className: "card-note", textContent: note }));
    box.append(row);
  }
  return box;
}

// The secret choice opens in a dialog for the one player choosing; the others look away.
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
