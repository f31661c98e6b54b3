// Picking players at setup: the table's known players as suggestions on each name field, the most
// recent first, and each one's usual colour (the one they last chose on this tablet) put back.
const $ = (id) => document.getElementById(id);
const store = window.localStorage;
const key = (name) => `usual-colour:${name.trim().toLowerCase()}`;

export async function offerKnownPlayers() {
  const list = $("known-players");
  try {
    const { players } = await (await fetch("/api/players")).json();
    players.sort((a, b) => (b.last_played || "").localeCompare(a.last_played || ""));
    list.replaceChildren(...players.map((p) => {
      const o = document.createElement("option");
      o.value = p.name;
      return o;
    }));
  } catch (e) { /* no suggestions: the names are typed as before */ }
}

// The colour this tablet last saw the player choose, or "" when it never did.
export function usualColour(name) { return store.getItem(key(name)) || ""; }

export function keepUsualColours(rows) {
  for (const r of rows) store.setItem(key(r.name), r.colour);
}
