// The games played at this table: open one, export its record, or import a record.
import { call } from "./api.js";

const GameViews = window.GameViews || (window.GameViews = {});
const $ = (id) => document.getElementById(id);

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

export function wireGamesList() {
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
}
