// The whole game's history: searchable, by player, undone entries struck through.
import { toast } from "./toast.js";
import { latestGame } from "./state.js";

const $ = (id) => document.getElementById(id);

let history = null;

// The History button: there is a history only while a game is open.
export function renderHistoryButton(g) {
  $("btn-history").disabled = !g;
}

async function historyDialog() {
  const g = latestGame();
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
  const g = latestGame();
  const names = (g && g.players) || [];
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

export function wireHistory() {
  $("btn-history").onclick = historyDialog;
  for (const id of ["history-search", "history-player", "history-undone"]) $(id).addEventListener("input", drawHistory);
  $("history-undone").addEventListener("change", drawHistory);
}
