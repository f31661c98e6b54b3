// Picking players at setup: the table's known players as suggestions on each name field, the most
// recent first, and each one's usual colour put back: the one the companion remembers (chosen last
// on any tablet), else the one this tablet last saw.
const $ = (id) => document.getElementById(id);
const store = window.localStorage;
const key = (name) => `usual-colour:${name.trim().toLowerCase()}`;
let usual = new Map();  // name (lower case) -> colour, as the companion remembers

export async function offerKnownPlayers() {
  const list = $("known-players");
  try {
    const { players } = await (await fetch("/api/players")).json();
    players.sort((a, b) => (b.last_played || "").localeCompare(a.last_played || ""));
    usual = new Map(players.filter((p) => p.colour).map((p) => [p.name.trim().toLowerCase(), p.colour]));
    list.replaceChildren(...players.map((p) => {
      const o = document.createElement("option");
      o.value = p.name;
      return o;
    }));
  } catch (e) { /* no suggestions: the names are typed as before */ }
}

// The player's usual colour, or "" when none is known.
export function usualColour(name) {
  return usual.get(name.trim().toLowerCase()) || store.getItem(key(name)) || "";
}

export function keepUsualColours(rows) {
  for (const r of rows) store.setItem(key(r.name), r.colour);
}
