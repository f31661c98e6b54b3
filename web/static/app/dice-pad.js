// The dice pad: one face button per face (a row per colour for coloured dice), the dice tapped so far,
// whose dice they are when several players throw at once, and the camera's reading to use or correct.
import { submit, call, thisDevice } from "./api.js";
import { COLOUR_NAMES, dieEl } from "./pieces.js";
import { latestGame } from "./state.js";

const $ = (id) => document.getElementById(id);

let entered = [];
let rollFor = null; // whose dice the pad enters when several players throw at once
let padKey = null;  // the game and input the pad is for: a new one empties it

export function renderDicePad(g, devices, version) {
  const box = $("dice-entry");
  if (!g) { box.hidden = true; return; }
  const aw = g.awaiting;
  const spec = aw.dice;
  box.hidden = !spec;
  box.dataset.count = spec ? String(spec.count) : "";
  if (!spec) { entered = []; return; }
  const key = `${g.id}:${g.inputs}`;
  if (padKey !== key) {
    keepOrClear(g, spec, padKey !== null && padKey.split(":")[0] === String(g.id));
    padKey = key;
  }
  const faceButton = (f, colour, limit) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "face";
    b.dataset.face = f;
    if (colour) b.dataset.colour = colour;
    b.append(dieEl(f, colour || ""));
    b.onclick = () => {
      const same = entered.filter((d) => (colour ? d.colour === colour : true)).length;
      if (entered.length < spec.count && same < limit) {
        entered.push(colour ? { face: f, colour } : f);
        drawEntered(spec);
      }
    };
    return b;
  };
  if (spec.colours.length) {
    // one row of faces per colour: the player's own dice and, where used, the white ones
    $("faces").replaceChildren(...spec.colours.map(([colour, n]) => {
      const row = document.createElement("div");
      row.className = "colour-row";
      row.dataset.colour = colour;
      row.dataset.count = String(n);
      const name = document.createElement("span");
      name.className = "colour-name";
      const owner = ((g.scoreboard && g.scoreboard.players) || []).find((p) => p.colour === colour);
      name.textContent = owner ? _("{name} ×{n}", { name: owner.name, n }) : _("{colour} ×{n}", { colour: COLOUR_NAMES[colour] || colour, n });
      if (owner) row.dataset.player = owner.name;
      row.append(name, ...spec.faces.map((f) => faceButton(f, colour, n)));
      return row;
    }));
    $("faces").classList.add("by-colour");
  } else {
    $("faces").replaceChildren(...spec.faces.map((f) => faceButton(f, null, spec.count)));
    $("faces").classList.remove("by-colour");
  }
  drawEntered(spec);
  // Several players throw at once. Coloured dice say whose they are (Lords of Vegas: one roll for all);
  // plain dice (Cincinnati) are entered one player at a time.
  const whose = $("whose");
  if (aw.players.length > 1 && !spec.colours.length) {
    if (!aw.players.includes(rollFor)) rollFor = aw.players[0];
    whose.hidden = false;
    whose.replaceChildren(...aw.players.map((seat) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = seat === rollFor ? "primary" : "secondary";
      b.textContent = g.players[seat];
      b.dataset.testid = `roll-for-${seat}`;
      b.onclick = () => { rollFor = seat; renderDicePad(g, devices, version); };
      return b;
    }));
  } else {
    rollFor = null;
    whose.hidden = true;
  }
  drawReading(g, spec, version);
  $("btn-sim").hidden = devices.camera !== "simulated";
}

// A new input empties the pad, except when another tablet entered it while dice were half-tapped here
// (Cincinnati's simultaneous throws put two tablets at one table): dice tapped for a player who still
// has to throw are kept, and either way a note says what happened instead of the dice just vanishing.
function keepOrClear(g, spec, sameGame) {
  const last = g.log.length ? g.log[g.log.length - 1] : null;
  const fromElsewhere = sameGame && entered.length > 0 && last && last.device !== thisDevice;
  const note = $("pad-note");
  if (!fromElsewhere) { entered = []; note.hidden = true; return; }
  const stillTheirs = rollFor !== null && g.awaiting.players.includes(rollFor) && entered.length <= spec.count
    && !spec.colours.length;
  const dice = entered.map((d) => (typeof d === "object" ? d.face : d)).join(" ");
  if (stillTheirs) {
    note.textContent = _("Another tablet entered a roll; the dice tapped here for {name} are kept: {dice}.", { name: g.players[rollFor], dice });
  } else {
    note.textContent = _("Another tablet entered this roll first; the dice tapped here were cleared: {dice}.", { dice });
    entered = [];
  }
  note.hidden = false;
}

// What the camera read, with its photo: taken as it is, or copied to the pad when the camera was unsure.
function drawReading(g, spec, version) {
  const reading = $("reading");
  reading.hidden = !g.reading;
  if (!g.reading) return;
  const use = document.createElement("button");
  use.type = "button";
  if (g.reading_note) {
    // an untrusted reading (wrong count, unsure dice) is never entered as it is: it is corrected
    use.className = "secondary";
    use.dataset.testid = "edit-reading";
    use.textContent = _("Correct it");
    use.onclick = () => {
      entered = g.reading.slice(0, spec.count).map((d) => (spec.colours.length ? { face: d.face, colour: d.colour } : d.face));
      drawEntered(spec);
    };
  } else {
    use.className = "primary";
    use.dataset.testid = "use-reading";
    use.textContent = _("Use camera reading");
    use.onclick = () => submit(rollAction(g.reading));
  }
  const label = document.createElement("span");
  label.textContent = _("Camera read:") + " ";
  const photo = document.createElement("img");
  photo.className = "reading-photo";
  photo.alt = _("What the camera read");
  photo.src = `/api/camera/frame.jpg?v=${version}`;
  photo.onerror = () => photo.remove();
  photo.onclick = () => photo.classList.toggle("large");
  reading.replaceChildren(photo, label, ...g.reading.map((d) => dieEl(d.face, d.colour || "")), use);
  if (g.reading_note) {
    // short or unsure: the picture is shown large at once, with where the camera looked, so the
    // table sees the die it missed or doubts
    photo.classList.add("large", "short");
    photo.dataset.testid = "reading-photo";
    const note = document.createElement("small");
    note.textContent = g.reading_note;
    const legend = document.createElement("small");
    legend.className = "reading-legend";
    legend.dataset.testid = "reading-legend";
    legend.textContent = _("Green: read. Amber: unsure. Grey circle: the camera looked there and found no die.");
    reading.append(note, legend);
  }
}

// The dice tapped so far (a tap on one takes it off) and the roll button, on once all are there.
function drawEntered(spec) {
  const el = $("entered");
  const chips = entered.map((f, i) => {
    const d = typeof f === "object" ? dieEl(f.face, `entered-die ${f.colour}`) : dieEl(f, "entered-die");
    d.onclick = () => { entered.splice(i, 1); drawEntered(spec); };
    return d;
  });
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = ngettext("{k} of {n} die", "{k} of {n} dice", spec.count, { k: entered.length });
  el.replaceChildren(count, ...chips);
  $("btn-roll").disabled = entered.length !== spec.count;
}

// The roll as the rules read it: a player is named only when plain dice are entered one player at a
// time (Cincinnati); coloured dice already say whose they are.
function rollAction(dice) {
  const action = { type: "roll", dice };
  const g = latestGame();
  const spec = g && g.awaiting.dice;
  if (rollFor !== null && spec && !spec.colours.length) action.player = rollFor;
  return action;
}

export function wireDicePad() {
  $("btn-clear").onclick = () => { entered = []; $("pad-note").hidden = true; const g = latestGame(); if (g) drawEntered(g.awaiting.dice); };
  $("btn-roll").onclick = async () => {
    const key = padKey;
    const taken = await submit(rollAction(entered.slice()));
    // Accepted: the pad empties, unless the next roll's pad is already up (its view came first) and may
    // hold dice tapped since. Refused: the dice stay on the pad to be corrected.
    if (!taken || padKey !== key) return;
    entered = [];
    const g = latestGame();
    if (g && g.awaiting.dice) drawEntered(g.awaiting.dice);
  };
  $("btn-sim").onclick = () => call("/api/camera/roll").catch(() => {});
}
