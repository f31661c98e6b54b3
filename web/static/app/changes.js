// What changed: after each input the pieces of the board and the score cards that changed are ringed
// for a few seconds, so a table that looked away sees where the dice went, which tile moved, whose
// money grew. Pieces are compared by a key (their test id, lot or tile) and what they show.

const PIECES = [
  "#scores [data-testid^='score-card-']",
  "#board [data-testid^='casino-']:not([data-testid='casino-die'])",
  "#board [data-testid^='table-']",
  "#board [data-testid^='player-']",
  "#board [data-testid='kept']",
  "#board [data-lot]",
  "#board [data-tile]",
].join(", ");
const SHOWN_MS = 6000;

let before = null;  // { id, inputs, looks: Map(key -> what it showed) }
let changed = { id: null, inputs: null, keys: new Set(), until: 0 };
let timer = null;

function keyOf(el) {
  return el.dataset.testid || (el.dataset.lot && `lot:${el.dataset.lot}`) || (el.dataset.tile && `tile:${el.dataset.tile}`) || "";
}

// What a piece shows: its words, and the classes and inline styles of it and its parts (a tile's colour, a
// die's face); not the marks of what may be done next (a casino the roll can go to, a lot tapped). Of a
// score card only the score: whose turn it is changes at nearly every input and has its own gold ring.
const PASSING = new Set(["changed", "can-place", "focused", "current"]);
function looks(el) {
  if (el.classList.contains("score-card")) return (el.querySelector(".score-values") || el).textContent;
  const parts = [el, ...el.querySelectorAll("*")].map((e) =>
    `${[...e.classList].filter((c) => !PASSING.has(c)).join(" ")}/${e.getAttribute("style") || ""}`);
  return `${el.textContent}|${parts.join(",")}`;
}

function pieces() {
  const found = new Map();
  for (const el of document.querySelectorAll(PIECES)) {
    const key = keyOf(el);
    if (key && !found.has(key)) found.set(key, el);
  }
  return found;
}

function unmark() {
  for (const el of document.querySelectorAll(".changed")) el.classList.remove("changed");
}

// Called after the scores and the board are drawn from a view.
export function markChanges(g) {
  const now = pieces();
  const seen = new Map([...now].map(([key, el]) => [key, looks(el)]));
  if (!g) { before = null; unmark(); return; }
  if (before && before.id === g.id && before.inputs !== g.inputs) {
    const keys = new Set([...seen].filter(([key, look]) => before.looks.has(key) && before.looks.get(key) !== look).map(([key]) => key));
    changed = { id: g.id, inputs: g.inputs, keys, until: Date.now() + SHOWN_MS };
    clearTimeout(timer);
    timer = setTimeout(unmark, SHOWN_MS);
  }
  // a redraw without a new input (a tap, a dialog) keeps the marks of the last input while they last
  const live = changed.id === g.id && changed.inputs === g.inputs && Date.now() < changed.until;
  for (const [key, el] of now) el.classList.toggle("changed", live && changed.keys.has(key));
  before = { id: g.id, inputs: g.inputs, looks: seen };
}
