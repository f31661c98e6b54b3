// Undo and redo, with the last thing that happened beside them.
import { call } from "./api.js";
import { latestGame } from "./state.js";

const $ = (id) => document.getElementById(id);

export function renderUndo(g) {
  if (!g) {
    $("last-event").replaceChildren();
    $("btn-undo").disabled = $("btn-redo").disabled = true;
    return;
  }
  $("btn-undo").disabled = !g.can_undo;
  $("btn-undo").title = g.undo_label ? _("Undo: {what}", { what: g.undo_label }) : "";
  $("btn-redo").disabled = !g.can_redo;
  const last = g.log.length ? g.log[g.log.length - 1] : null;
  $("last-event").textContent = last ? last.text : "";
}

export function wireUndo() {
  $("btn-undo").onclick = () => {
    const g = latestGame();
    // a roll everyone saw is undone only when the table says so
    if (g && g.undo_warns && !window.confirm(_("Undo a roll everyone saw?\n{what}", { what: g.undo_label }))) return;
    call("/api/undo").catch(() => {});
  };
  $("btn-redo").onclick = () => call("/api/redo").catch(() => {});
}
