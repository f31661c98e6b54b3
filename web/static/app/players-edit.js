// A player's page, its changes (each needs the table PIN, asked for when needed): rename, merge
// another player into this one (a typo made two of one), delete (their name leaves every past game;
// their results stay). The companion refuses what cannot be done and says why, next to the controls.
import { call } from "./api.js";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, testid, onclick) {
  const b = el("button", "", text);
  b.type = "button";  // inside the dialog's form: never closes it
  b.dataset.testid = testid;
  b.onclick = onclick;
  return b;
}

export async function editControls(page, refresh) {
  const box = el("details", "player-edit");
  box.dataset.testid = "player-edit";
  box.append(el("summary", "", _("Change this player")));
  const error = el("p", "error");
  error.setAttribute("role", "alert");
  const change = async (path, body, method) => {
    error.textContent = "";
    try {
      await call(path, body, { method, quiet: true });
      await refresh();
    } catch (e) {
      error.textContent = e.message;
    }
  };

  const name = el("input");
  name.value = page.name;
  name.maxLength = 40;
  name.setAttribute("aria-label", _("New name"));
  name.dataset.testid = "player-new-name";
  const rename = el("div", "row");
  rename.append(name, button(_("Rename"), "player-rename", () => change(`/api/players/${page.id}`, { name: name.value }, "PUT")));

  const { players } = await (await fetch("/api/players")).json();
  const others = players.filter((p) => p.id !== page.id);
  const merge = el("div", "row");
  if (others.length) {
    const pick = el("select");
    pick.setAttribute("aria-label", _("The same person under another name"));
    pick.dataset.testid = "player-merge-from";
    pick.append(...others.map((p) => { const o = el("option", "", p.name); o.value = String(p.id); return o; }));
    merge.append(pick, button(_("Merge into {name}", { name: page.name }), "player-merge",
      () => change(`/api/players/${page.id}/merge`, { from: Number(pick.value) }, "POST")));
  }

  const remove = button(_("Delete this player"), "player-delete", () => {
    if (remove.dataset.armed !== "1") {  // a second tap: a slip never deletes anyone
      remove.dataset.armed = "1";
      remove.textContent = _("Tap again to delete {name}: their name leaves every past game", { name: page.name });
      return;
    }
    change(`/api/players/${page.id}`, null, "DELETE");
  });
  remove.classList.add("danger");
  box.append(rename, merge, el("div", "row"), error);
  box.lastChild.previousSibling.append(remove);
  return box;
}
