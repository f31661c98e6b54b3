// What the table is doing now: the page title, the prompt with whoever must act picked out (it is
// the first thing to read) and, at the end, the outcome.

const $ = (id) => document.getElementById(id);

export function renderPrompt(g) {
  if (!g) {
    $("title").textContent = _("Vegas Table Companion");
    $("waiting").textContent = _("No game yet. Press “New game” to start one.");
    $("outcome").hidden = true;
    return;
  }
  $("title").textContent = _("{game} · game {id}", { game: g.title, id: g.id });
  const aw = g.awaiting;
  drawPrompt(g, aw);
  $("waiting").dataset.player = aw.players.map((i) => g.players[i]).join(", ");
  $("outcome").hidden = !g.outcome;
  $("outcome").textContent = g.outcome ? g.outcome.text : "";
}

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
