// The big moments of a game (a Heckmeck turn that failed, a Cincinnati duel's outcome, a Lords of
// Vegas gamble's result) in a large banner under the prompt. The last-action line beside Undo is
// replaced by the next input and was missed from across the table; the banner stays until the table
// dismisses it or the next big moment takes its place.

const $ = (id) => document.getElementById(id);
const BIG = new Set(["failed", "duel_won", "gamble_result"]);
const store = window.localStorage;

let shownKey = null;

function seen(key) { return store.getItem(`seen:moment:${key}`) === "1"; }

// The newest big moment in the log, unless an undo came after it (the table is correcting itself).
export function latestMoment(log) {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i];
    if (e.kind === "undone") return null;
    if (BIG.has(e.kind)) return { entry: e, index: i };
  }
  return null;
}

export function renderMoment(g) {
  const box = $("moment");
  const found = g && !g.outcome ? latestMoment(g.log) : null;
  // the time of the input and the words: the log is a window of the last entries, so no index
  const key = found ? `${g.id}:${found.entry.at}:${found.entry.kind}:${found.entry.text}` : null;
  if (!key || seen(key)) {
    box.hidden = true;
    shownKey = null;
    return;
  }
  shownKey = key;
  $("moment-text").textContent = found.entry.text;
  box.dataset.kind = found.entry.kind;
  box.hidden = false;
}

export function wireMoment() {
  $("btn-moment-ok").onclick = () => {
    if (shownKey) store.setItem(`seen:moment:${shownKey}`, "1");
    $("moment").hidden = true;
    shownKey = null;
  };
}
