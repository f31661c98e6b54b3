// The small pieces several views draw: a die, the Heckmeck worm, a player's colour badge with their
// initials, and the colour each seat plays. The game views and the summary (classic scripts) reach
// them through window (app.js).

const store = window.localStorage;

export function dieEl(face, extra = "") {
  const d = document.createElement("span");
  d.className = `die ${extra}`;
  if (face === "worm") { d.append(wormIcon()); d.classList.add("worm"); d.title = _("worm (counts 5)"); }
  else { d.textContent = face; }
  return d;
}

export function wormIcon() {
  const w = document.createElement("span");
  w.className = "wormicon";
  w.setAttribute("role", "img");
  w.setAttribute("aria-label", _("worm"));
  return w;
}

export const COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "black", "white"];
export const COLOUR_NAMES = { red: _("red"), blue: _("blue"), green: _("green"), yellow: _("yellow"), purple: _("purple"),
  orange: _("orange"), black: _("black"), white: _("white") };

// The game's own colours first, then those chosen at the start (kept by the companion; a game from
// before that: by the tablet that started it), then the usual order.
export function seatColours(g) {
  const sb = g.scoreboard || {};
  const mine = JSON.parse(store.getItem(`colours:${g.id}`) || "null");
  const kept = g.colours;  // chosen at setup, kept by the companion: every tablet shows the same
  return g.players.map((_n, i) => (sb.players && sb.players[i] && sb.players[i].colour) || (kept && kept[i])
    || (mine && mine[i]) || COLOURS[i % COLOURS.length]);
}

// The colours chosen for a game just started, kept on this tablet for seatColours().
export function keepColours(gameId, colours) {
  store.setItem(`colours:${gameId}`, JSON.stringify(colours));
}

// Initials that tell the players apart ("An", "Al" for Anna and Alex), shown on every colour swatch.
export function initials(names) {
  return names.map((n, i) => {
    const clash = names.some((m, j) => j !== i && m.slice(0, 1).toUpperCase() === n.slice(0, 1).toUpperCase());
    return clash ? n.slice(0, 2) : n.slice(0, 1).toUpperCase();
  });
}

export function badge(colour, initial) {
  const b = document.createElement("span");
  b.className = `badge c-${colour}`;
  b.textContent = initial;
  b.setAttribute("aria-hidden", "true");
  return b;
}
